// CUDA's vector types (char1 ... double4: 1 to 4 components of each basic
// type) and their make_ functions, with CUDA's sizes and alignments, so a
// lab's structures and vector loads have the layout nvcc gives them.
// uint3 and dim3 are here too, as in CUDA's vector_types.h: threadIdx and
// friends are of these types, and a launch's configuration.
#ifndef SIM_VECTOR_TYPES_H
#define SIM_VECTOR_TYPES_H

struct uint3 { unsigned x, y, z; };

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

#ifdef __clang__
// Check builds: vector types, so a float4 load or store stays one 16-byte
// access (as nvcc's LDG.128 / STS.128) instead of being split into two
// 8-byte ones, which would count as other requests with other banks.
typedef float float2 __attribute__((ext_vector_type(2)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef int int2 __attribute__((ext_vector_type(2)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef unsigned uint2 __attribute__((ext_vector_type(2)));
typedef unsigned uint4 __attribute__((ext_vector_type(4)));
#else
struct alignas(8) float2 { float x, y; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) int2 { int x, y; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(8) uint2 { unsigned x, y; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
#endif

// The rest as structures: NAME1 ... NAME4 of T, NAME2 aligned to A2 bytes
// and NAME4 to A4 (CUDA's alignments; a 3-component type has T's own).
#define SIM_VECTOR_1_3(name, T)                                                                             \
    struct name##1 { T x; };                                                                                \
    struct name##3 { T x, y, z; };
#define SIM_VECTOR_2_4(name, T, A2, A4)                                                                     \
    struct alignas(A2) name##2 { T x, y; };                                                                 \
    struct alignas(A4) name##4 { T x, y, z, w; };
SIM_VECTOR_1_3(char, signed char)
SIM_VECTOR_2_4(char, signed char, 2, 4)
SIM_VECTOR_1_3(uchar, unsigned char)
SIM_VECTOR_2_4(uchar, unsigned char, 2, 4)
SIM_VECTOR_1_3(short, short)
SIM_VECTOR_2_4(short, short, 4, 8)
SIM_VECTOR_1_3(ushort, unsigned short)
SIM_VECTOR_2_4(ushort, unsigned short, 4, 8)
SIM_VECTOR_1_3(int, int)
struct uint1 { unsigned x; };
SIM_VECTOR_1_3(long, long)
SIM_VECTOR_2_4(long, long, 2 * sizeof(long), 16)
SIM_VECTOR_1_3(ulong, unsigned long)
SIM_VECTOR_2_4(ulong, unsigned long, 2 * sizeof(unsigned long), 16)
SIM_VECTOR_1_3(longlong, long long)
SIM_VECTOR_2_4(longlong, long long, 16, 16)
SIM_VECTOR_1_3(ulonglong, unsigned long long)
SIM_VECTOR_2_4(ulonglong, unsigned long long, 16, 16)
SIM_VECTOR_1_3(float, float)
SIM_VECTOR_1_3(double, double)
SIM_VECTOR_2_4(double, double, 16, 16)
#undef SIM_VECTOR_1_3
#undef SIM_VECTOR_2_4

// make_NAMEk(x, ...) for every type above.
#define SIM_MAKE_VECTORS(name, T)                                                                           \
    inline name##1 make_##name##1(T x) { return name##1{x}; }                                               \
    inline name##2 make_##name##2(T x, T y) { return name##2{x, y}; }                                       \
    inline name##3 make_##name##3(T x, T y, T z) { return name##3{x, y, z}; }                               \
    inline name##4 make_##name##4(T x, T y, T z, T w) { return name##4{x, y, z, w}; }
SIM_MAKE_VECTORS(char, signed char)
SIM_MAKE_VECTORS(uchar, unsigned char)
SIM_MAKE_VECTORS(short, short)
SIM_MAKE_VECTORS(ushort, unsigned short)
SIM_MAKE_VECTORS(int, int)
SIM_MAKE_VECTORS(uint, unsigned)
SIM_MAKE_VECTORS(long, long)
SIM_MAKE_VECTORS(ulong, unsigned long)
SIM_MAKE_VECTORS(longlong, long long)
SIM_MAKE_VECTORS(ulonglong, unsigned long long)
SIM_MAKE_VECTORS(float, float)
SIM_MAKE_VECTORS(double, double)
#undef SIM_MAKE_VECTORS

#endif
