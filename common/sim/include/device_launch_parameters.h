/* Simulator build: stands in for the CUDA toolkit's header of this name.
 * threadIdx, blockIdx, blockDim, gridDim and warpSize, which cuda_runtime.h's
 * stand-in declares (Visual Studio's CUDA template includes both). */
#ifndef SIM_DEVICE_LAUNCH_PARAMETERS_H
#define SIM_DEVICE_LAUNCH_PARAMETERS_H
#include "cuda_runtime.h"
#endif
