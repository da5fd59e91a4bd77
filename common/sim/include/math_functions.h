/* Simulator build: stands in for the CUDA toolkit's header of this name.
 * What a lab uses of it comes with cuda_runtime.h's stand-in. */
#ifndef SIM_MATH_FUNCTIONS_H
#define SIM_MATH_FUNCTIONS_H
#include "cuda_runtime.h"
#endif
