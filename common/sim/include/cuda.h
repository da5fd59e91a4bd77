/* Simulator build: stands in for the CUDA toolkit's header of this name.
 * The driver API (cu* functions, CUresult, ...) is not simulated: a file that
 * calls it is a limit of the kit (names_not_simulated.sh).  Files include
 * this header for the runtime's names too, which cuda_runtime.h's
 * stand-in declares. */
#ifndef SIM_CUDA_H
#define SIM_CUDA_H
#include "cuda_runtime.h"
#endif
