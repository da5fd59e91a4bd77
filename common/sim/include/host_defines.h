/* Simulator build: stands in for the CUDA toolkit's header of this name.
 * What a lab uses of it comes with cuda_runtime.h's stand-in. */
#ifndef SIM_HOST_DEFINES_H
#define SIM_HOST_DEFINES_H
#include "cuda_runtime.h"
#endif
