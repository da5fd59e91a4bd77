/* Simulator build: stands in for the CUDA toolkit's header of this name.
 * C++ files get the kernel-side language (dim3, threadIdx, launches) too. */
#include "../sim_runtime_api.h"
#ifdef __cplusplus
#include "../cuda_sim.h"
#endif
