// CUDA's arithmetic in the global namespace, for the CPU simulator: min and
// max with CUDA's overloads, the intrinsics (__fmaf_rn, __popc,
// __float2int_rn, ...) and the math functions CUDA adds to C's (rsqrtf,
// sinpif, norm3df, ...).  A lab file spells the reserved ones as CUDA does
// and the launch rewriter renames them (cuda_spellings.h), so none of these
// names collides with one the C library declares (glibc has sinpif of its
// own in newer releases, and names like __isnanf).
//
// Exact where CUDA's result is exact (conversions, bits, integer
// arithmetic); the approximate forms (__expf, __sinf, ...) are computed as
// well as the CPU can, which is within what any right use of them expects.
#ifndef SIM_DEVICE_MATH_H
#define SIM_DEVICE_MATH_H

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>

// Device-side helpers CUDA provides in the global namespace.  min and max
// with CUDA's overloads: a signed and an unsigned integer compare as the
// unsigned type, a float and a double as doubles (and floating point
// ignores a NaN, as fminf does), so a call nvcc accepts resolves here too.
#define SIM_MIN_MAX(R, A, B)                                                                                \
    inline R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }                                           \
    inline R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
#define SIM_MIN_MAX_SIGNED_UNSIGNED(S, U) \
    SIM_MIN_MAX(S, S, S) SIM_MIN_MAX(U, U, U) SIM_MIN_MAX(U, S, U) SIM_MIN_MAX(U, U, S)
SIM_MIN_MAX_SIGNED_UNSIGNED(int, unsigned)
SIM_MIN_MAX_SIGNED_UNSIGNED(long, unsigned long)
SIM_MIN_MAX_SIGNED_UNSIGNED(long long, unsigned long long)
#undef SIM_MIN_MAX_SIGNED_UNSIGNED
#undef SIM_MIN_MAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline double min(float a, double b) { return fmin(a, b); }
inline double max(float a, double b) { return fmax(a, b); }
inline double min(double a, float b) { return fmin(a, b); }
inline double max(double a, float b) { return fmax(a, b); }
inline float sim_fmul_rn(float a, float b) { return a * b; }
inline float sim_fadd_rn(float a, float b) { return a + b; }
inline float sim_fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline float sim_fsub_rn(float a, float b) { return a - b; }
inline float sim_fdiv_rn(float a, float b) { return a / b; }
inline float sim_frcp_rn(float a) { return 1.0f / a; }
inline float sim_fsqrt_rn(float a) { return sqrtf(a); }
inline float sim_fmaf_ieee_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline double sim_dmul_rn(double a, double b) { return a * b; }
inline double sim_dadd_rn(double a, double b) { return a + b; }
inline double sim_dsub_rn(double a, double b) { return a - b; }
inline double sim_ddiv_rn(double a, double b) { return a / b; }
inline double sim_drcp_rn(double a) { return 1.0 / a; }
inline double sim_dsqrt_rn(double a) { return std::sqrt(a); }
inline double sim_fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
// The fast, approximate forms a GPU offers; the CPU computes them exactly,
// which is within the tolerance any right use of them expects.
inline float sim_fdividef(float a, float b) { return a / b; }
inline float sim_expf(float a) { return expf(a); }
inline float sim_logf(float a) { return logf(a); }
inline float sim_sinf(float a) { return sinf(a); }
inline float sim_cosf(float a) { return cosf(a); }
inline float sim_powf(float a, float b) { return powf(a, b); }
inline float sim_saturatef(float a) { return a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f; }  // NaN -> 0, as CUDA's
// Bits reinterpreted, and bit counts, with CUDA's results for 0.
// (__builtin_memcpy: check builds turn memcpy's builtin off, see backend.mk.)
inline int sim_float_as_int(float f) { int i; __builtin_memcpy(&i, &f, sizeof i); return i; }
inline float sim_int_as_float(int i) { float f; __builtin_memcpy(&f, &i, sizeof f); return f; }
inline unsigned sim_float_as_uint(float f) { unsigned u; __builtin_memcpy(&u, &f, sizeof u); return u; }
inline float sim_uint_as_float(unsigned u) { float f; __builtin_memcpy(&f, &u, sizeof f); return f; }
inline int sim_popc(unsigned x) { return __builtin_popcount(x); }
inline int sim_clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
inline int sim_ffs(int x) { return __builtin_ffs(x); }
inline int sim_popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int sim_clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
inline int sim_ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned sim_brev(unsigned x)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++, x >>= 1)
        r = r << 1 | (x & 1);
    return r;
}
// Integer products: of the low 24 bits (the old fast path for index
// arithmetic), and the high half of a 32-bit product.
inline int sim_mul24(int a, int b)
{
    // The low 24 bits, sign-extended (an arithmetic shift of an int).
    long long x = (int)((unsigned)a << 8) >> 8, y = (int)((unsigned)b << 8) >> 8;
    return (int)(unsigned)(x * y);
}
inline unsigned sim_umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int sim_mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
inline unsigned sim_umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
// The other unsigned and 64-bit forms of min and max: umin, llmax, ...
inline unsigned sim_umin(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned sim_umax(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long sim_llmin(long long a, long long b) { return a < b ? a : b; }
inline long long sim_llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long sim_ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long sim_ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

// Math functions CUDA has and C++ does not.  The float forms are computed
// in double and rounded once.
inline double sim_rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float sim_rsqrtf(float x) { return (float)sim_rsqrt(x); }
inline float sim_frsqrt_rn(float x) { return (float)sim_rsqrt(x); }
inline double sim_rcbrt(double x) { return 1.0 / std::cbrt(x); }
inline float sim_rcbrtf(float x) { return (float)sim_rcbrt(x); }
constexpr double sim_pi = 3.14159265358979323846;
// sin(pi x) and cos(pi x): x reduced to [-1, 1] first (exactly), so that
// whole and half-whole x give exact zeros and ones, as CUDA's do.
inline double sim_sinpi(double x)
{
    double r = std::remainder(x, 2.0);
    if (r == std::trunc(r))
        return std::copysign(0.0, x);
    return std::sin(sim_pi * r);
}
inline double sim_cospi(double x)
{
    double r = std::fabs(std::remainder(x, 2.0));
    if (r == 0.5)
        return 0.0;
    return std::cos(sim_pi * r);
}
inline float sim_sinpif(float x) { return (float)sim_sinpi(x); }
inline float sim_cospif(float x) { return (float)sim_cospi(x); }
inline void sim_sincospi(double x, double *s, double *c) { *s = sim_sinpi(x), *c = sim_cospi(x); }
inline void sim_sincospif(float x, float *s, float *c) { *s = sim_sinpif(x), *c = sim_cospif(x); }
inline double sim_rhypot(double x, double y) { return 1.0 / std::hypot(x, y); }
inline float sim_rhypotf(float x, float y) { return (float)sim_rhypot(x, y); }
inline double sim_norm3d(double a, double b, double c) { return std::hypot(a, b, c); }
inline double sim_norm4d(double a, double b, double c, double d)
{
    long double s = (long double)a * a + (long double)b * b + (long double)c * c + (long double)d * d;
    return (double)std::sqrt(s);
}
inline float sim_norm3df(float a, float b, float c) { return (float)sim_norm3d(a, b, c); }
inline float sim_norm4df(float a, float b, float c, float d) { return (float)sim_norm4d(a, b, c, d); }
inline double sim_rnorm3d(double a, double b, double c) { return 1.0 / sim_norm3d(a, b, c); }
inline double sim_rnorm4d(double a, double b, double c, double d) { return 1.0 / sim_norm4d(a, b, c, d); }
inline float sim_rnorm3df(float a, float b, float c) { return (float)sim_rnorm3d(a, b, c); }
inline float sim_rnorm4df(float a, float b, float c, float d) { return (float)sim_rnorm4d(a, b, c, d); }
// fdividef, CUDA's name without underscores for __fdividef.
inline float sim_fdividef_plain(float a, float b) { return a / b; }
inline double sim_fdivide(double a, double b) { return a / b; }
// More of the fast forms.
inline float sim_tanf(float a) { return tanf(a); }
inline float sim_exp10f(float a) { return (float)std::pow(10.0, (double)a); }
inline float sim_log2f(float a) { return log2f(a); }
inline float sim_log10f(float a) { return log10f(a); }
inline void sim_sincosf(float a, float *s, float *c) { *s = sinf(a), *c = cosf(a); }

// Conversions.  A float or double that does not fit the integer type
// gives its nearest end, and NaN gives 0, as a GPU's conversion does
// (a C++ cast of such a value is undefined).
template <class I, class F>
inline I sim_saturated(F f)
{
    if (f != f)
        return 0;
    if (f <= (F)std::numeric_limits<I>::min())
        return std::numeric_limits<I>::min();
    if (f >= (F)std::numeric_limits<I>::max())
        return std::numeric_limits<I>::max();
    return (I)f;
}
// _rn: to nearest, ties to even (the CPU's default mode); _rz: toward
// zero; _rd: down; _ru: up.
#define SIM_TO_INTEGER(from, F, to, I)                                                                \
    inline I sim_##from##2##to##_rn(F f) { return sim_saturated<I>(std::nearbyint(f)); }             \
    inline I sim_##from##2##to##_rz(F f) { return sim_saturated<I>(std::trunc(f)); }                 \
    inline I sim_##from##2##to##_rd(F f) { return sim_saturated<I>(std::floor(f)); }                 \
    inline I sim_##from##2##to##_ru(F f) { return sim_saturated<I>(std::ceil(f)); }
SIM_TO_INTEGER(float, float, int, int)
SIM_TO_INTEGER(float, float, uint, unsigned)
SIM_TO_INTEGER(float, float, ll, long long)
SIM_TO_INTEGER(float, float, ull, unsigned long long)
SIM_TO_INTEGER(double, double, int, int)
SIM_TO_INTEGER(double, double, uint, unsigned)
SIM_TO_INTEGER(double, double, ll, long long)
SIM_TO_INTEGER(double, double, ull, unsigned long long)
#undef SIM_TO_INTEGER
// To floating point, to nearest (the others need the CPU's rounding mode
// changed around one operation, which the simulator does not do).
inline float sim_int2float_rn(int i) { return (float)i; }
inline float sim_uint2float_rn(unsigned u) { return (float)u; }
inline float sim_ll2float_rn(long long i) { return (float)i; }
inline float sim_ull2float_rn(unsigned long long u) { return (float)u; }
inline float sim_double2float_rn(double d) { return (float)d; }
inline double sim_int2double_rn(int i) { return i; }
inline double sim_uint2double_rn(unsigned u) { return u; }
inline double sim_ll2double_rn(long long i) { return (double)i; }
inline double sim_ull2double_rn(unsigned long long u) { return (double)u; }
// A double's bits.
inline long long sim_double_as_longlong(double d) { long long i; __builtin_memcpy(&i, &d, sizeof i); return i; }
inline double sim_longlong_as_double(long long i) { double d; __builtin_memcpy(&d, &i, sizeof d); return d; }
inline int sim_double2hiint(double d) { return (int)((unsigned long long)sim_double_as_longlong(d) >> 32); }
inline int sim_double2loint(double d) { return (int)(unsigned)(unsigned long long)sim_double_as_longlong(d); }
inline double sim_hiloint2double(int hi, int lo)
{
    return sim_longlong_as_double((long long)((unsigned long long)(unsigned)hi << 32 | (unsigned)lo));
}

// Integer intrinsics.
inline unsigned long long sim_brevll(unsigned long long x)
{
    return (unsigned long long)sim_brev((unsigned)x) << 32 | sim_brev((unsigned)(x >> 32));
}
// Four bytes picked from the eight of y:x by the low three bits of each of
// the selector's four low nibbles.
inline unsigned sim_byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long bytes = (unsigned long long)y << 32 | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned)(bytes >> (8 * ((s >> (4 * i)) & 7)) & 0xff) << (8 * i);
    return r;
}
// hi:lo shifted by shift mod 32 (the c forms: by at most 32), and the
// upper (left) or lower (right) 32 bits kept.
inline unsigned sim_funnelshift_l(unsigned lo, unsigned hi, unsigned shift)
{
    return (unsigned)(((unsigned long long)hi << 32 | lo) << (shift & 31) >> 32);
}
inline unsigned sim_funnelshift_lc(unsigned lo, unsigned hi, unsigned shift)
{
    return shift >= 32 ? lo : sim_funnelshift_l(lo, hi, shift);
}
inline unsigned sim_funnelshift_r(unsigned lo, unsigned hi, unsigned shift)
{
    return (unsigned)(((unsigned long long)hi << 32 | lo) >> (shift & 31));
}
inline unsigned sim_funnelshift_rc(unsigned lo, unsigned hi, unsigned shift)
{
    return shift >= 32 ? hi : sim_funnelshift_r(lo, hi, shift);
}
// The upper 64 bits of a 128-bit product, from 32-bit halves (no __int128
// on every machine the simulator builds for).
inline unsigned long long sim_umul64hi(unsigned long long a, unsigned long long b)
{
    unsigned long long a0 = (unsigned)a, a1 = a >> 32, b0 = (unsigned)b, b1 = b >> 32;
    unsigned long long low = a0 * b0, mid1 = a1 * b0, mid2 = a0 * b1;
    unsigned long long carry = ((low >> 32) + (unsigned)mid1 + (unsigned)mid2) >> 32;
    return a1 * b1 + (mid1 >> 32) + (mid2 >> 32) + carry;
}
inline long long sim_mul64hi(long long a, long long b)
{
    unsigned long long hi = sim_umul64hi((unsigned long long)a, (unsigned long long)b);
    if (a < 0)
        hi -= (unsigned long long)b;
    if (b < 0)
        hi -= (unsigned long long)a;
    return (long long)hi;
}
// |x - y| + z, and averages without the overflow of x + y.
inline unsigned sim_sad(int x, int y, unsigned z) { return (unsigned)(x > y ? (long long)x - y : (long long)y - x) + z; }
inline unsigned sim_usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
inline int sim_hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
inline int sim_rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
inline unsigned sim_uhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y) >> 1); }
inline unsigned sim_urhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y + 1) >> 1); }

#endif
