/* Simulator build: stands in for the CUDA toolkit's header of this name.
 * What a lab uses of it comes with cuda_runtime.h's stand-in. */
#ifndef SIM_SM_20_ATOMIC_FUNCTIONS_H
#define SIM_SM_20_ATOMIC_FUNCTIONS_H
#include "cuda_runtime.h"
#endif
