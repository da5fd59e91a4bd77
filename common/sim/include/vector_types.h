/* Simulator build: stands in for the CUDA toolkit's header of this name.
 * CUDA's vector types and their make_ functions, which cuda_runtime.h's
 * stand-in declares (../sim_vector_types.h). */
#ifndef SIM_VECTOR_TYPES_H
#define SIM_VECTOR_TYPES_H
#include "cuda_runtime.h"
#endif
