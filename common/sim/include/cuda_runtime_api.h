/* Simulator build: stands in for the CUDA toolkit's header of this name. */
#include "../sim_runtime_api.h"
