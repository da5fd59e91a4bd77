// CUDA's own occupancy calculator (the toolkit's cuda_occupancy.h, named by
// CUDA_OCCUPANCY_H when compiled) on the limits `make query` printed:
// reads "threads registers shared_bytes" lines, prints the blocks per SM
// for each.  calculator_agrees.sh holds occupancy.sh's working to it.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include CUDA_OCCUPANCY_H

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s LIMITS_TSV < cases\n", argv[0]);
        return 2;
    }
    FILE *tsv = fopen(argv[1], "r");
    if (!tsv) {
        perror(argv[1]);
        return 2;
    }
    cudaOccDeviceProp device;
    char line[256];
    while (fgets(line, sizeof line, tsv)) {
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        long value = atol(tab + 1);
        if (!strcmp(line, "compute capability")) {
            device.computeMajor = atoi(tab + 1);
            device.computeMinor = atoi(strchr(tab + 1, '.') ? strchr(tab + 1, '.') + 1 : "0");
        }
        else if (!strcmp(line, "maxThreadsPerBlock")) device.maxThreadsPerBlock = (int)value;
        else if (!strcmp(line, "maxThreadsPerMultiProcessor")) device.maxThreadsPerMultiprocessor = (int)value;
        else if (!strcmp(line, "regsPerBlock")) device.regsPerBlock = (int)value;
        else if (!strcmp(line, "regsPerMultiprocessor")) device.regsPerMultiprocessor = (int)value;
        else if (!strcmp(line, "warpSize")) device.warpSize = (int)value;
        else if (!strcmp(line, "sharedMemPerBlock")) device.sharedMemPerBlock = (size_t)value;
        else if (!strcmp(line, "sharedMemPerMultiprocessor")) device.sharedMemPerMultiprocessor = (size_t)value;
        else if (!strcmp(line, "multiProcessorCount")) device.numSms = (int)value;
        else if (!strcmp(line, "sharedMemPerBlockOptin")) device.sharedMemPerBlockOptin = (size_t)value;
        else if (!strcmp(line, "reservedSharedMemPerBlock")) device.reservedSharedMemPerBlock = (size_t)value;
    }
    fclose(tsv);
    int threads, registers;
    long shared;
    while (scanf("%d %d %ld", &threads, &registers, &shared) == 3) {
        cudaOccFuncAttributes kernel;
        kernel.maxThreadsPerBlock = INT_MAX;
        kernel.numRegs = registers;
        kernel.sharedSizeBytes = (size_t)shared;
        kernel.maxDynamicSharedSizeBytes = 0;
        cudaOccDeviceState state;
        cudaOccResult result;
        if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &device, &kernel, &state, threads, 0) != CUDA_OCC_SUCCESS) {
            fprintf(stderr, "the calculator refused %d %d %ld\n", threads, registers, shared);
            return 1;
        }
        printf("%d %d %ld %d\n", threads, registers, shared, result.activeBlocksPerMultiprocessor);
    }
    return 0;
}
