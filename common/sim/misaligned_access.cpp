// Misaligned accesses, which a GPU faults on and a CPU does not.
//
// A GPU loads a float4 with one 16-byte instruction, and faults unless the
// address is a multiple of 16 (cudaErrorMisalignedAddress, "misaligned
// address"): a row of A read four floats at a time faults wherever n is not
// a multiple of 4.  A CPU loads it from anywhere, so without this the
// simulator would grade such a kernel right.  The student's file is built
// with -fsanitize=alignment (common/build.mk), whose checks call the
// function below for an access through a pointer not aligned for its type:
// in a kernel, that CUDA thread and the launch stop with the error a GPU
// gives; in host code, which a CPU runs anyway, nothing happens.  No
// sanitizer library is linked: the functions below are its whole runtime.
// (A clang build's float4 is a vector type, which clang loads with an
// aligned instruction: a misaligned one faults there, as an illegal access.)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime_state.h"

namespace {

// The layouts the compilers give the sanitizer's data (gcc and clang alike).
struct source_location {
    const char *file;
    uint32_t line, column;
};
struct type_descriptor {
    uint16_t kind, info;
    char name[1];
};
struct type_mismatch_data {
    source_location where;
    const type_descriptor *type;
    unsigned char log_alignment;
    unsigned char check_kind;
};

const char *access_kind(unsigned char kind)
{
    switch (kind) {
    case 0: return "a load of";
    case 1: return "a store to";
    case 2: return "a reference to";
    default: return "an access to";
    }
}

void misaligned(const type_mismatch_data *data, uintptr_t pointer)
{
    uintptr_t alignment = uintptr_t(1) << data->log_alignment;
    if (!pointer || pointer % alignment == 0)
        return;  // only alignment is checked; a null pointer faults by itself
    // gcc names the type "'const struct float4'": the student wrote float4.
    std::string type = data->type->name;
    for (const char *noise : {"'", "const ", "volatile ", "struct "})
        for (size_t at; (at = type.find(noise)) != std::string::npos;)
            type.erase(at, strlen(noise));
    const char *file = data->where.file ? strrchr(data->where.file, '/') : nullptr;
    file = file ? file + 1 : (data->where.file ? data->where.file : "?");
    char why[512];
    snprintf(why, sizeof why,
             "misaligned address: %s %s at %s:%u, address %#lx (%s), which is not a multiple of %lu: a GPU "
             "moves a %s with one %lu-byte instruction, which needs an address its size divides",
             access_kind(data->check_kind), type.c_str(), file, data->where.line, (unsigned long)pointer,
             sim::describe_address(reinterpret_cast<const void *>(pointer)).c_str(), (unsigned long)alignment,
             type.c_str(), (unsigned long)alignment);
    sim::abandon_running_thread(cudaErrorMisalignedAddress, why);
}

}  // namespace

extern "C" void __ubsan_handle_type_mismatch_v1(const type_mismatch_data *data, uintptr_t pointer)
{
    misaligned(data, pointer);
}

// __builtin_assume_aligned(p, 16) whose pointer is not so aligned: clang's
// check builds call this (gcc's builds do not).  A false assumption lets a
// GPU's compiler emit wider loads than the code's types ask for, which may
// or may not fault; what the kit checks is each access against its own
// type's alignment (above), the same in both builds, so here nothing
// happens.  Defined because the build links no sanitizer library.
extern "C" void __ubsan_handle_alignment_assumption(const void *, uintptr_t, uintptr_t, uintptr_t) {}
