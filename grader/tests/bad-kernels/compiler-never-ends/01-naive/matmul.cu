// Makes the compiler run forever, filling its memory as it goes: an
// endless file included.  Each build of a student's file has a time limit
// and a memory limit (grader/grade.sh), so this costs the stage its kernel
// tests, with the reason, and nothing else.
#include "lab.h"
#include "/dev/zero"

void matmul(const float *A, const float *B, float *C, int n) {}
