/* test_simulator, part: device functions: intrinsics, CUDA's math and
 * conversions, atomics and the vector types, each with the results nvcc's
 * code gives.
 */
#include "simulator_tests.h"

// The arithmetic intrinsics a kernel may call, with CUDA's results at the
// edges (__saturatef of NaN is 0; __clz of 0 is 32; __ffs of 0 is 0).
__global__ void intrinsics(float *f, int *i)
{
    f[0] = __fdividef(6.0f, 3.0f);
    f[1] = __saturatef(1.5f);
    f[2] = __saturatef(nanf(""));
    f[3] = __int_as_float(__float_as_int(-2.5f));
    f[4] = __uint_as_float(__float_as_uint(0.25f));
    f[5] = __fsqrt_rn(16.0f) + __frcp_rn(4.0f) + __fsub_rn(1.0f, 0.5f) + __fdiv_rn(1.0f, 8.0f);
    f[6] = __expf(0.0f) + __logf(1.0f) + __sinf(0.0f) + __cosf(0.0f) + __powf(2.0f, 3.0f);
    i[0] = __popc(0xF0F0u);
    i[1] = __clz(0);
    i[2] = __clz(1);
    i[3] = __ffs(0);
    i[4] = __ffs(8);
}

START_TEST(arithmetic_intrinsics)
{
    float *f = dev_alloc<float>(7);
    int *i = dev_alloc<int>(5);
    intrinsics<<<1, 1>>>(f, i);
    CUDA_OK(cudaGetLastError());
    std::vector<float> hf = to_host(f, 7);
    std::vector<int> hi = to_host(i, 5);
    ck_assert_float_eq(hf[0], 2.0f);
    ck_assert_float_eq(hf[1], 1.0f);
    ck_assert_float_eq(hf[2], 0.0f);
    ck_assert_float_eq(hf[3], -2.5f);
    ck_assert_float_eq(hf[4], 0.25f);
    ck_assert_float_eq(hf[5], 4.0f + 0.25f + 0.5f + 0.125f);
    ck_assert_float_eq(hf[6], 1.0f + 0.0f + 0.0f + 1.0f + 8.0f);
    ck_assert_int_eq(hi[0], 8);
    ck_assert_int_eq(hi[1], 32);
    ck_assert_int_eq(hi[2], 31);
    ck_assert_int_eq(hi[3], 0);
    ck_assert_int_eq(hi[4], 4);
}
END_TEST

// Integer intrinsics, conversions, and min/max with CUDA's mixed-type
// overloads (a signed and an unsigned compare as unsigned; a float and a
// double as doubles): the calls nvcc accepts, with its results.
__global__ void integer_intrinsics(long long *out)
{
    int i = 0;
    out[i++] = __mul24(-3, 1 << 20);
    out[i++] = __mul24(0x1000001, 5) * 100 + __mul24(-3, 5);  // only the low 24 bits (1, -3)
    out[i++] = __umul24(0xff000002u, 3u);          // 2 * 3
    out[i++] = __mulhi(1 << 30, 16);               // (2^34) >> 32
    out[i++] = __umulhi(0xffffffffu, 0xffffffffu);
    out[i++] = __popcll(0xf0f0f0f0f0f0f0f0ull);
    out[i++] = __clzll(1ll << 40);
    out[i++] = __ffsll(1ll << 40);
    out[i++] = __brev(1u);
    out[i++] = __float2int_rn(2.5f) * 100 + __float2int_rn(3.5f) * 10 + __float2int_rz(-2.7f);
    out[i++] = __float2uint_rn(7.5f) + __float2uint_rz(7.9f);
    out[i++] = (long long)(__int2float_rn(-7) * 2 + __uint2float_rn(9u));
    out[i++] = min(-1, 2u);                        // unsigned: 2
    out[i++] = max(-1L, 2UL) == (unsigned long)-1; // unsigned: -1 wraps to the largest
    out[i++] = (long long)(min(1.5f, 2.5) * 10) + (long long)(max(2.5, 1.5f) * 100);
    out[i++] = min(3LL, 4LL) + max(5u, 6u);
}

START_TEST(integer_intrinsics_and_mixed_min_max)
{
    const int count = 16;
    long long *d = dev_alloc<long long>(count);
    integer_intrinsics<<<1, 1>>>(d);
    std::vector<long long> o = to_host(d, count);
    long long want[count] = {-3 * (1LL << 20), 500 - 15, 6, 4, 0xfffffffe, 32, 23, 41, 0x80000000LL,
                             2 * 100 + 4 * 10 - 2, 8 + 7, -14 + 9, 2, 1, 15 + 250, 3 + 6};
    for (int k = 0; k < count; k++)
        ck_assert_msg(o[k] == want[k], "result %d: %lld, want %lld", k, o[k], want[k]);
}
END_TEST

// The math functions CUDA adds to C's, more fast forms, the conversions
// in every rounding direction (a value out of range gives the nearest end,
// NaN gives 0) and a double's bits: nvcc's results.
__global__ void cuda_math(double *out)
{
    int i = 0;
    out[i++] = rsqrtf(4.0f) + rsqrt(16.0) * 10 + rcbrtf(8.0f) * 100 + __frsqrt_rn(0.25f) * 1000;
    out[i++] = sinpif(1.0f) == 0.0f && sinpif(0.5f) == 1.0f && cospif(0.5f) == 0.0f && cospif(1.0f) == -1.0f &&
               sinpi(-2.0) == 0.0 && cospi(3.0) == -1.0;
    float s, c;
    sincospif(1.5f, &s, &c);
    double ds, dc;
    sincospi(0.25, &ds, &dc);
    out[i++] = s * 10 + c + (fabs(ds - dc) < 1e-15);
    out[i++] = rhypotf(3.0f, 4.0f) * 10 + norm3df(2.0f, 3.0f, 6.0f) * 100 + rnorm4df(1.0f, 1.0f, 1.0f, 1.0f) * 1000 +
               norm4d(2.0, 2.0, 2.0, 2.0) * 10000 + rnorm3d(0.0, 0.0, 0.5) * 100000;
    out[i++] = fdividef(1.0f, 4.0f) + fdivide(1.0, 2.0) + __fdividef(1.0f, 8.0f);
    __sincosf(0.0f, &s, &c);
    out[i++] = __tanf(0.0f) + __exp10f(2.0f) + __log2f(8.0f) * 1000 + __log10f(1000.0f) * 10000 + s + c * 100000;
    out[i++] = umin(3u, 5u) + umax(3u, 5u) * 10 + llmin(-4LL, 2LL) * 100 + llmax(-4LL, 2LL) * 1000 +
               ullmin(7ull, 9ull) * 10000 + ullmax(7ull, 9ull) * 100000;
    out[i++] = __float2int_rd(-2.5f) * 10 + __float2int_ru(-2.5f);
    out[i++] = __float2int_rz(1e10f) == 2147483647 && __float2int_rn(-1e10f) == (-2147483647 - 1) &&
               __float2int_rn(nanf("")) == 0 && __float2uint_rz(-1.0f) == 0u && __float2ull_rd(1e30f) == ~0ull;
    out[i++] = __double2ll_rn(2.5) * 100 + __double2ll_rn(3.5) * 10 + __double2int_rz(-1.9);
    out[i++] = (double)__double2uint_ru(1.1) + (double)__double2ull_rz(7.9) * 10 + __float2ll_ru(0.1f) * 100 +
               __double2int_rd(-0.5) * 1000;
    out[i++] = __double2float_rn(0.1) == 0.1f && __ll2float_rn(1LL << 40) == 1099511627776.0f &&
               __ull2double_rn(3ull) == 3.0 && __int2double_rn(-7) == -7.0 && __uint2double_rn(9u) == 9.0 &&
               __ll2double_rn(-5LL) == -5.0 && __ull2float_rn(5ull) == 5.0f;
    out[i++] = __double_as_longlong(1.0) == 0x3ff0000000000000LL && __longlong_as_double(0x4000000000000000LL) == 2.0 &&
               __hiloint2double(__double2hiint(-3.75), __double2loint(-3.75)) == -3.75 &&
               __double2hiint(1.0) == 0x3ff00000 && __double2loint(1.0) == 0;
    out[i++] = __dadd_rn(1.0, 2.0) + __dmul_rn(2.0, 3.0) * 10 + __dsub_rn(5.0, 1.0) * 100 + __ddiv_rn(1.0, 4.0) +
               __drcp_rn(2.0) + __dsqrt_rn(9.0) * 1000 + __fma_rn(2.0, 3.0, 1.0) * 10000 + __fmaf_ieee_rn(1.0f, 1.0f, 1.0f) * 100000;
}

START_TEST(cuda_math_functions_and_conversions)
{
    const int count = 14;
    double *d = dev_alloc<double>(count);
    cuda_math<<<1, 1>>>(d);
    CUDA_OK(cudaGetLastError());
    std::vector<double> o = to_host(d, count);
    double want[count] = {0.5 + 2.5 + 50 + 2000, 1, -10 + 0 + 1, 2 + 700 + 500 + 40000 + 200000, 0.25 + 0.5 + 0.125,
                          100 + 3000 + 30000 + 100000, 3 + 50 - 400 + 2000 + 70000 + 900000, -30 - 2, 1, 200 + 40 - 1,
                          2 + 70 + 100 - 1000, 1, 1, 3 + 60 + 400 + 0.25 + 0.5 + 3000 + 70000 + 200000};
    for (int k = 0; k < count; k++)
        ck_assert_msg(std::fabs(o[k] - want[k]) <= 1e-9 * std::fabs(want[k]) + 1e-12, "result %d: %.17g, want %.17g", k,
                      o[k], want[k]);
}
END_TEST

// Integer intrinsics beyond the 32-bit ones: bit reversal of 64 bits, byte
// permutes, funnel shifts (their c forms clamp the shift at 32), the high
// half of a 64-bit product, sums of absolute differences and averages
// without overflow.
__global__ void more_integer_intrinsics(unsigned long long *out)
{
    int i = 0;
    out[i++] = __brevll(1ull);
    out[i++] = __byte_perm(0x33221100u, 0x77665544u, 0x7531u);
    out[i++] = __byte_perm(0x33221100u, 0x77665544u, 0x8888u);  // only a nibble's low three bits count
    out[i++] = __funnelshift_l(0x80000000u, 0x1u, 1u);
    out[i++] = __funnelshift_l(0x80000000u, 0x1u, 33u);          // 33 mod 32
    out[i++] = __funnelshift_lc(0x12345678u, 0x1u, 40u);         // clamped: the low word
    out[i++] = __funnelshift_r(0x2u, 0x1u, 1u);
    out[i++] = __funnelshift_rc(0x2u, 0xabcdu, 32u);
    out[i++] = __umul64hi(1ull << 63, 4ull);
    out[i++] = (unsigned long long)__mul64hi(-1LL, 1LL);
    out[i++] = (unsigned long long)__mul64hi(-(1LL << 62), 8LL);
    out[i++] = __umul64hi(~0ull, ~0ull);
    out[i++] = __sad(1, 5, 10u) + __usad(9u, 2u, 100u) * 100;
    out[i++] = (unsigned long long)(long long)(__hadd(-3, 0) * 10 + __rhadd(1, 2));
    out[i++] = __uhadd(0xffffffffu, 1u) + (unsigned long long)__urhadd(0xffffffffu, 0xffffffffu) * 2;
}

START_TEST(more_integer_intrinsics_follow_cuda)
{
    const int count = 15;
    unsigned long long *d = dev_alloc<unsigned long long>(count);
    more_integer_intrinsics<<<1, 1>>>(d);
    std::vector<unsigned long long> o = to_host(d, count);
    unsigned long long want[count] = {1ull << 63, 0x77553311ull, 0x00000000ull, 0x3ull, 0x3ull, 0x12345678ull,
                                      0x80000001ull, 0xabcdull, 2ull, ~0ull, ~0ull - 1, ~0ull - 1, 14 + 10700,
                                      (unsigned long long)(long long)(-20 + 2), 0x80000000ull + 0xffffffffull * 2};
    for (int k = 0; k < count; k++)
        ck_assert_msg(o[k] == want[k], "result %d: %#llx, want %#llx", k, o[k], want[k]);
}
END_TEST

// The warp's reductions (signed and unsigned) and matches, whose lanes meet
// as a shuffle's do.

// ----------------------------------------------------------------- atomics

__global__ void atomics(int *isum, float *fsum, unsigned *usum, int *ticket, int *slots)
{
    atomicAdd(isum, (int)threadIdx.x + 1);
    atomicAdd(fsum, 0.5f);
    atomicAdd(usum, 2u);
    int old = atomicAdd(ticket, 1);  // every thread gets its own number
    atomicAdd(&slots[old], 1);
}

START_TEST(atomic_add_totals)
{
    ck_assert_int_eq(setenv("SIM_THREADS", "4", 1), 0);  // blocks really run concurrently
    const int blocks = 256, threads = 256, n = blocks * threads;
    int *isum = dev_alloc<int>(1), *ticket = dev_alloc<int>(1), *slots = dev_alloc<int>(n);
    float *fsum = dev_alloc<float>(1);
    unsigned *usum = dev_alloc<unsigned>(1);
    CUDA_OK(cudaMemset(isum, 0, sizeof(int)));
    CUDA_OK(cudaMemset(ticket, 0, sizeof(int)));
    CUDA_OK(cudaMemset(slots, 0, n * sizeof(int)));
    CUDA_OK(cudaMemset(fsum, 0, sizeof(float)));
    CUDA_OK(cudaMemset(usum, 0, sizeof(unsigned)));
    atomics<<<blocks, threads>>>(isum, fsum, usum, ticket, slots);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    ck_assert_int_eq(to_host(isum, 1)[0], blocks * (threads * (threads + 1) / 2));
    ck_assert_float_eq(to_host(fsum, 1)[0], 0.5f * n);  // exact: n / 2 < 2^24
    ck_assert_uint_eq(to_host(usum, 1)[0], 2u * n);
    ck_assert_int_eq(to_host(ticket, 1)[0], n);
    std::vector<int> s = to_host(slots, n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(s[i] == 1, "ticket %d was handed out %d times", i, s[i]);
}
END_TEST

// An atomic's old value comes back in an object that counts it as a load
// in check mode (cuda_sim.h's atomic_old); every way a kernel uses the
// value must see the number itself: kept with auto, in CUDA's max, a
// switch, a comparison, and printf.
__global__ void atomic_values_in_expressions(int *counter, int *out)
{
    auto ticket = atomicAdd(counter, 1);  // 0
    out[0] = ticket * 2 + 1;
    out[1] = max(atomicAdd(counter, 1), -5);  // 1
    switch (atomicAdd(counter, 1)) {  // 2
    case 2: out[2] = 1; break;
    default: out[2] = -1; break;
    }
    out[3] = atomicCAS(counter, 3, 10) == 3 ? 1 : 0;
    printf("old %d, then %s\n", atomicAdd(counter, 5), "15");
}

START_TEST(atomic_old_values_read_as_numbers)
{
    int *counter = dev_alloc<int>(1), *out = dev_alloc<int>(4);
    CUDA_OK(cudaMemset(counter, 0, sizeof(int)));
    char path[] = "/tmp/sim-printf-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fflush(stdout);
    int saved = dup(1);
    ck_assert_int_ge(dup2(fd, 1), 0);
    atomic_values_in_expressions<<<1, 1>>>(counter, out);
    CUDA_OK(cudaDeviceSynchronize());
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    char printed[64] = {0};
    ck_assert_int_gt(pread(fd, printed, sizeof printed - 1, 0), 0);
    close(fd);
    unlink(path);
    ck_assert_str_eq(printed, "old 10, then 15\n");
    std::vector<int> o = to_host(out, 4);
    ck_assert_int_eq(o[0], 1);
    ck_assert_int_eq(o[1], 1);
    ck_assert_int_eq(o[2], 1);
    ck_assert_int_eq(o[3], 1);
    ck_assert_int_eq(to_host(counter, 1)[0], 15);
}
END_TEST

// CUDA's vector types with nvcc's sizes and alignments (a structure of
// them, or a vector load, lays out as on a GPU), and a kernel moving them.
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3");
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4");
static_assert(sizeof(uint2) == 8 && alignof(uint2) == 8, "uint2");
static_assert(sizeof(uint4) == 16 && alignof(uint4) == 16, "uint4");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2");
static_assert(sizeof(short2) == 4 && alignof(short2) == 4, "short2");
static_assert(sizeof(char4) == 4 && alignof(char4) == 4, "char4");
static_assert(sizeof(uchar3) == 3 && alignof(uchar3) == 1, "uchar3");
static_assert(sizeof(longlong2) == 16 && alignof(longlong2) == 16, "longlong2");

__global__ void move_vectors(const uint4 *in, double2 *out, float3 *sums)
{
    uint4 v = in[threadIdx.x];
    out[threadIdx.x] = make_double2(v.x + v.y, v.z * v.w);
    sums[threadIdx.x] = make_float3((float)v.x, (float)v.y, (float)(v.x + v.y + v.z + v.w));
}

START_TEST(vector_types_and_their_make_functions)
{
    std::vector<uint4> in(32);
    for (unsigned i = 0; i < 32; i++)
        in[i] = make_uint4(i, 2 * i, 3, i + 1);
    uint4 *d_in = dev_alloc<uint4>(32);
    double2 *d_out = dev_alloc<double2>(32);
    float3 *d_sums = dev_alloc<float3>(32);
    to_device(d_in, in);
    move_vectors<<<1, 32>>>(d_in, d_out, d_sums);
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<double2> out = to_host(d_out, 32);
    std::vector<float3> sums = to_host(d_sums, 32);
    for (unsigned i = 0; i < 32; i++) {
        ck_assert_msg(out[i].x == 3.0 * i && out[i].y == 3.0 * (i + 1), "thread %u: (%g, %g)", i, out[i].x, out[i].y);
        ck_assert_msg(sums[i].x == i && sums[i].y == 2 * i && sums[i].z == 4 * i + 4, "thread %u: sums", i);
    }
    char4 c = make_char4(1, -2, 3, -4);
    longlong2 l = make_longlong2(1LL << 40, -7);
    ck_assert_int_eq(c.y + c.w, -6);
    ck_assert(l.x == 1LL << 40 && l.y == -7);
}

void add_device_function_tests(Suite *s)
{
    TCase *tc;
    tc = tcase(s, "device_functions", 10);
    tcase_add_test(tc, arithmetic_intrinsics);
    tcase_add_test(tc, integer_intrinsics_and_mixed_min_max);
    tcase_add_test(tc, cuda_math_functions_and_conversions);
    tcase_add_test(tc, more_integer_intrinsics_follow_cuda);
    tcase_add_test(tc, vector_types_and_their_make_functions);

    tc = tcase(s, "atomics", 10);
    tcase_add_test(tc, atomic_add_totals);
    tcase_add_test(tc, atomic_old_values_read_as_numbers);
}
