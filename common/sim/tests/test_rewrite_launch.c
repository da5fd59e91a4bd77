/* Unit tests for the launch rewriter (rewrite_launch.c).  From the repo root:

     mkdir -p build && gcc -std=c11 -O2 -Wall -Wextra -I common/sim \
         common/sim/tests/test_rewrite_launch.c common/sim/rewrite_launch.c \
         $(pkg-config --cflags --libs check) -o build/test_rewrite_launch \
         && build/test_rewrite_launch
*/
// Every case compares the whole output, because the rewrite must change
// nothing but `<<<`, its `>>>` and CUDA's reserved names, and checks the newline count, because
// the simulator's error messages rely on line numbers being kept.
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rewrite_launch.h"

#define HEADER "#line 1 \"t.cu\"\n"

struct result {
    int rc;
    char *out;  // malloc'd, NUL-terminated
    char err[256];
};

static struct result rewrite_as(const char *src, const char *path)
{
    struct result r;
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    r.rc = rewrite_launches(src, strlen(src), f, path, r.err, sizeof r.err);
    fflush(f);
    long n = ftell(f);
    ck_assert_int_ge(n, 0);
    r.out = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(r.out);
    rewind(f);
    ck_assert_uint_eq(fread(r.out, 1, (size_t)n, f), (size_t)n);
    r.out[n] = '\0';
    fclose(f);
    return r;
}

static size_t count_newlines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

// The rewrite of src must be exactly HEADER followed by expected.
static void check_rewrite(const char *src, const char *expected)
{
    struct result r = rewrite_as(src, "t.cu");
    ck_assert_msg(r.rc == 0, "unexpected error: %s", r.err);
    ck_assert_msg(strncmp(r.out, HEADER, strlen(HEADER)) == 0, "no #line header in: %s", r.out);
    ck_assert_str_eq(r.out + strlen(HEADER), expected);
    ck_assert_uint_eq(count_newlines(r.out), count_newlines(src) + 1);
    free(r.out);
}

START_TEST(line_header)
{
    struct result r = rewrite_as("", "labs/matmul.cu");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.out, "#line 1 \"labs/matmul.cu\"\n");
    free(r.out);

    // The path sits in a string literal, so it must be escaped.
    r = rewrite_as("x\n", "a\\b\"c.cu");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.out, "#line 1 \"a\\\\b\\\"c.cu\"\nx\n");
    free(r.out);
}
END_TEST

START_TEST(simple_launch)
{
    check_rewrite("k<<<grid, block>>>(a, b);\n", "k % sim_cfg(grid, block)(a, b);\n");
}
END_TEST

START_TEST(template_and_namespaced_names)
{
    check_rewrite("ns::k<float, 4><<<g, b, 0, s>>>(x);\n"
                  "::outer::inner::k<T, N * 2><<<1, 1>>>();\n",
                  "ns::k<float, 4> % sim_cfg(g, b, 0, s)(x);\n"
                  "::outer::inner::k<T, N * 2> % sim_cfg(1, 1)();\n");
}
END_TEST

// `extern __shared__ T name[];` (dynamic shared memory): inside a function a
// pointer of that name to the simulator's buffer, with the declaration's
// newlines kept; alignment is dropped (the buffer is aligned), other CUDA
// names respelled.
START_TEST(dynamic_shared_in_a_function)
{
    check_rewrite("{\n  extern __shared__ float tile[];\n  extern  __shared__ __align__(16) int\n    /* c */ v[ ];\n}\n",
                  "{\n  float *tile = reinterpret_cast<decltype(tile)>(sim::dynamic_shared_memory());\n"
                  "  int *v = reinterpret_cast<decltype(v)>(sim::dynamic_shared_memory());\n\n}\n");
}
END_TEST

// At file scope a variable would be set once for every block: a macro of the
// name instead, then a #line so the lines after keep their numbers.
START_TEST(dynamic_shared_at_file_scope)
{
    struct result r = rewrite_as("extern __shared__ float4 smem[];\nint x;\n", "t.cu");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.out, HEADER "\n#define smem (reinterpret_cast<float4 *>(sim::dynamic_shared_memory()))\n"
                                   "#line 1 \"t.cu\"\n\nint x;\n");
    free(r.out);
}
END_TEST

// A namespace's body or an `extern "C"` block is no function: there too a
// variable would be set once for every block, so the name is a macro (as a
// kernel in an anonymous namespace with its tiles beside it needs); inside
// a function in a namespace, and after a namespace alias, it is a pointer.
START_TEST(dynamic_shared_in_a_namespace)
{
    struct result r = rewrite_as("namespace {\nextern __shared__ float tiles[];\n}\n", "t.cu");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.out, HEADER "namespace {\n\n#define tiles (reinterpret_cast<float *>(sim::dynamic_shared_memory()))\n"
                                   "#line 2 \"t.cu\"\n\n}\n");
    free(r.out);
    r = rewrite_as("namespace lab::detail [[maybe_unused]] {\nextern \"C\" {\nextern __shared__ int s[];\n}}\n", "t.cu");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "#define s (reinterpret_cast<int *>(sim::dynamic_shared_memory()))"));
    free(r.out);
    check_rewrite("namespace a { void f() { if (1) { extern __shared__ float t[]; } } }\n",
                  "namespace a { void f() { if (1) { float *t = reinterpret_cast<decltype(t)>(sim::dynamic_shared_memory()); } } }\n");
    check_rewrite("namespace cg = b;\nextern \"C\" void f() { extern __shared__ float t[]; }\n",
                  "namespace cg = b;\nextern \"C\" void f() { float *t = reinterpret_cast<decltype(t)>(sim::dynamic_shared_memory()); }\n");
}
END_TEST

// The macros nvcc defines are respelled in directives as in code (never
// in strings), so the file takes nvcc's branches and the system headers
// keep the host compiler's.
START_TEST(compiler_macros)
{
    check_rewrite("#ifdef __CUDACC__\n#if defined(__NVCC__) && __CUDA_ARCH__ >= 800\nconst char *s = \"__CUDA_ARCH__\";\n",
                  "#ifdef SIM_CUDACC\n#if defined(SIM_NVCC) && SIM_CUDA_ARCH >= 800\nconst char *s = \"__CUDA_ARCH__\";\n");
}
END_TEST

// A name of the file's own that hides a built-in variable (launch code's
// `dim3 gridDim(...), blockDim(...)`; a parameter; a struct member) is
// respelled where it is declared, in the launch configuration and in the
// rest of its scope; the built-ins elsewhere (in kernels, after the scope
// closes, after `return`, in a macro's definition) are left to cuda_sim.h.
START_TEST(names_hiding_built_in_variables)
{
    check_rewrite("void run(int n) {\n"
                  "  dim3 gridDim(n / 32, n / 32);\n"
                  "  dim3 blockDim(32 * 32);\n"
                  "  k<<<gridDim, blockDim>>>(blockDim.x);\n"
                  "}\n"
                  "__global__ void k(int s) { int i = blockIdx.x * blockDim.x; return gridDim.x; }\n",
                  "void run(int n) {\n"
                  "  dim3 sim_own_gridDim(n / 32, n / 32);\n"
                  "  dim3 sim_own_blockDim(32 * 32);\n"
                  "  k % sim_cfg(sim_own_gridDim, sim_own_blockDim)(sim_own_blockDim.x);\n"
                  "}\n"
                  "SIM_GLOBAL void k(int s) { int i = blockIdx.x * blockDim.x; return gridDim.x; }\n");
    // Parameters: the body after them, nothing after a prototype.
    check_rewrite("void go(dim3 gridDim, const dim3 &b);\n"
                  "void go(dim3 gridDim, const dim3 &b) { k<<<gridDim, b>>>(); }\n"
                  "int x = gridDim.x;\n",
                  "void go(dim3 sim_own_gridDim, const dim3 &b);\n"
                  "void go(dim3 sim_own_gridDim, const dim3 &b) { k % sim_cfg(sim_own_gridDim, b)(); }\n"
                  "int x = gridDim.x;\n");
    // Members, reached with . and ->; a macro's definition is left alone.
    check_rewrite("struct L { dim3 gridDim; dim3 blockDim; };\n"
                  "#define THREADS blockDim.x\n"
                  "void f(L l, L *p) { k<<<l.gridDim, p->blockDim>>>(); }\n",
                  "struct L { dim3 sim_own_gridDim; dim3 sim_own_blockDim; };\n"
                  "#define THREADS blockDim.x\n"
                  "void f(L l, L *p) { k % sim_cfg(l.sim_own_gridDim, p->sim_own_blockDim)(); }\n");
    // A template's parameter: the template it heads, then the built-in.
    check_rewrite("template <int blockDim> __global__ void t(float *p) { p[blockDim] = 0; }\n"
                  "__global__ void u(float *p) { p[blockDim.x] = 0; }\n",
                  "template <int sim_own_blockDim> SIM_GLOBAL void t(float *p) { p[sim_own_blockDim] = 0; }\n"
                  "SIM_GLOBAL void u(float *p) { p[blockDim.x] = 0; }\n");
    // A loop's variable, then the built-in again after the loop.
    check_rewrite("{ for (unsigned threadIdx = 0; threadIdx < 4; ++threadIdx) use(threadIdx); use(threadIdx.x); }\n",
                  "{ for (unsigned sim_own_threadIdx = 0; sim_own_threadIdx < 4; ++sim_own_threadIdx) "
                  "use(sim_own_threadIdx); use(threadIdx.x); }\n");
}
END_TEST

// `alignas` among a __shared__ declaration's specifiers, where nvcc takes
// it and C++ takes none after thread_local, is respelled; before them, or
// anywhere else, it is C++'s own.
START_TEST(alignas_in_shared_declarations)
{
    check_rewrite("static __shared__ alignas(16) float a[4], b alignas(8);\nalignas(16) __shared__ float c[4];\n"
                  "struct alignas(8) S { alignas(4) int x; };\n",
                  "static SIM_SHARED SIM_ALIGNAS(16) float a[4], b alignas(8);\nalignas(16) SIM_SHARED float c[4];\n"
                  "struct alignas(8) S { alignas(4) int x; };\n");
}
END_TEST

// `__device__ __shared__` (in either order) is shared memory, not a
// variable of global memory to register.
START_TEST(device_shared_not_registered)
{
    check_rewrite("{ __device__ __shared__ float a[4]; __shared__ __device__ int b; }\n",
                  "{ SIM_DEVICE SIM_SHARED float a[4]; SIM_SHARED SIM_DEVICE int b; }\n");
}
END_TEST

// Not a dynamic shared declaration: left to the compiler as written (an
// extern with a size, an extern of something else).
START_TEST(extern_left_alone)
{
    check_rewrite("extern int n;\nextern __shared__ float s[32];\n", "extern int n;\nextern SIM_SHARED float s[32];\n");
}
END_TEST

START_TEST(string_literals)
{
    check_rewrite("puts(\"a<<<b>>>c\");\n"
                  "k<<<1, 1>>>(\"x\\\"<<<y\\\\\", \"\\\">>>\");\n",
                  "puts(\"a<<<b>>>c\");\n"
                  "k % sim_cfg(1, 1)(\"x\\\"<<<y\\\\\", \"\\\">>>\");\n");
}
END_TEST

START_TEST(raw_strings)
{
    check_rewrite("s = R\"(x<<<y)\";\n"
                  "t = R\"d(\")<<<\")d\";\n"
                  "u = u8R\"(>>>\n<<<)\";\n"
                  "k<<<1, 1>>>(s);\n",
                  "s = R\"(x<<<y)\";\n"
                  "t = R\"d(\")<<<\")d\";\n"
                  "u = u8R\"(>>>\n<<<)\";\n"
                  "k % sim_cfg(1, 1)(s);\n");
}
END_TEST

START_TEST(char_literals)
{
    check_rewrite("c = '<'; d = '\\''; e = '\"';\n"
                  "k<<<c == '>' ? 1 : 2, 32>>>(c, '<', '>');\n",
                  "c = '<'; d = '\\''; e = '\"';\n"
                  "k % sim_cfg(c == '>' ? 1 : 2, 32)(c, '<', '>');\n");
}
END_TEST

START_TEST(comments)
{
    check_rewrite("// k<<<1, 1>>>(x);\n"
                  "/* k<<<2, 2>>>(y);\n   >>> */ k<<<3, /* >>> */ 4>>>(z); // <<<\n",
                  "// k<<<1, 1>>>(x);\n"
                  "/* k<<<2, 2>>>(y);\n   >>> */ k % sim_cfg(3, /* >>> */ 4)(z); // <<<\n");
}
END_TEST

START_TEST(shifts_in_config_and_args)
{
    check_rewrite("k<<<n >> 1, 32>>>(x);\n"
                  "k<<<(n+31)>>5, 32>>>(a<<2, b>>1);\n",
                  "k % sim_cfg(n >> 1, 32)(x);\n"
                  "k % sim_cfg((n+31)>>5, 32)(a<<2, b>>1);\n");
}
END_TEST

START_TEST(template_ending_in_triple_angle)
{
    // C++ reads the first as `grid_for<T<2>> > (n)`, the second as a call
    // of f<a<b<1>>>; either way the `>>>` belongs to the configuration.
    check_rewrite("k<<<grid_for<T<2>>>(n), block>>>(args);\n"
                  "k<<<f<a<b<1>>>(n), 32>>>(x);\n",
                  "k % sim_cfg(grid_for<T<2>>>(n), block)(args);\n"
                  "k % sim_cfg(f<a<b<1>>>(n), 32)(x);\n");
}
END_TEST

START_TEST(template_call_in_config)
{
    check_rewrite("k<<<std::max<int>(1, n / 32), 32>>>(a);\n",
                  "k % sim_cfg(std::max<int>(1, n / 32), 32)(a);\n");
}
END_TEST

START_TEST(several_launches_on_one_line)
{
    check_rewrite("a<<<1, 2>>>(x); b<<<3, 4>>>(y);c<<<5,6>>>();\n",
                  "a % sim_cfg(1, 2)(x); b % sim_cfg(3, 4)(y);c % sim_cfg(5,6)();\n");
}
END_TEST

START_TEST(launch_like_text_in_args)
{
    check_rewrite("k<<<1, 1>>>(\"k<<<2, 2>>>(x)\", a >> 1, b<<3, c > d);\n",
                  "k % sim_cfg(1, 1)(\"k<<<2, 2>>>(x)\", a >> 1, b<<3, c > d);\n");
}
END_TEST

START_TEST(config_over_several_lines)
{
    check_rewrite("k<<<\n"
                  "    dim3(n / 16,\n"
                  "         m / 16),\n"
                  "    dim3(16, 16)>>>(a,\n"
                  "  b);\n"
                  "after();\n",
                  "k % sim_cfg(\n"
                  "    dim3(n / 16,\n"
                  "         m / 16),\n"
                  "    dim3(16, 16))(a,\n"
                  "  b);\n"
                  "after();\n");
}
END_TEST

START_TEST(crlf_line_endings)
{
    check_rewrite("// note\r\nint x;\r\nk<<<1,\r\n 2>>>(x);\r\nq<<<3, 4>>>();\r\n",
                  "// note\r\nint x;\r\nk % sim_cfg(1,\r\n 2)(x);\r\nq % sim_cfg(3, 4)();\r\n");
}
END_TEST

// Visual Studio saves "UTF-8 with signature": a byte-order mark, which a
// compiler skips only at the very start of a file, not after the #line
// header.  Left out; one elsewhere (in a string, say) is kept.
START_TEST(byte_order_mark_left_out)
{
    check_rewrite("\xef\xbb\xbf#include \"lab.h\"\r\nk<<<1, 2>>>();\r\n",
                  "#include \"lab.h\"\r\nk % sim_cfg(1, 2)();\r\n");
    check_rewrite("const char *s = \"\xef\xbb\xbf\";\n", "const char *s = \"\xef\xbb\xbf\";\n");
}
END_TEST

START_TEST(no_launches_unchanged)
{
    const char *src = "#include <vector>\n"
                      "int f(int a) { return a << 2 >> 1 < 3; }\n"
                      "std::vector<std::vector<int>> v; // >>>\n"
                      "bool g(int a, int b) { return a<b && b>a; }\n";
    check_rewrite(src, src);
    check_rewrite("no newline at the end", "no newline at the end");
}
END_TEST

START_TEST(unmatched_open)
{
    // The `;` ends the broken configuration, so the error names its own
    // line rather than pairing it with the next launch's `>>>`.
    struct result r = rewrite_as("int a;\n\nk<<<1, 1(x);\nb<<<2, 2>>>(y);\n", "matmul.cu");
    ck_assert_int_ne(r.rc, 0);
    ck_assert_str_eq(r.err, "matmul.cu:3: '<<<' has no matching '>>>'");
    free(r.out);

    r = rewrite_as("x;\r\nk<<<1, 2\r\n", "t.cu");
    ck_assert_int_ne(r.rc, 0);
    ck_assert_str_eq(r.err, "t.cu:2: '<<<' has no matching '>>>'");
    free(r.out);
}
END_TEST

// Beyond the required forms: cases the heuristics in rewrite_launch.c were
// written for.

START_TEST(comparison_in_config)
{
    check_rewrite("k<<<n < 32 ? 1 : 2, 32>>>(x);\n"
                  "k<<<f(a < b), 32>>>(y);\n",
                  "k % sim_cfg(n < 32 ? 1 : 2, 32)(x);\n"
                  "k % sim_cfg(f(a < b), 32)(y);\n");
}
END_TEST

START_TEST(digit_separators_and_arrow)
{
    check_rewrite("k<<<1'000, p->block>>>(x, 'a');\n",
                  "k % sim_cfg(1'000, p->block)(x, 'a');\n");
}
END_TEST

START_TEST(operator_shift_specialisation)
{
    const char *src = "template <> std::ostream &operator<<<int>(std::ostream &, box<int>);\n";
    check_rewrite(src, src);
}
END_TEST

// CUDA's reserved names become the simulator's spellings in code, whole
// identifiers only, and stay as written in strings and comments.
START_TEST(cuda_names_respelled)
{
    check_rewrite("__global__ void k(float *__restrict__ c)\n"
                  "{\n"
                  "    __shared__ float t[4]; // __shared__ tile\n"
                  "    __syncthreads(); puts(\"__syncthreads\");\n"
                  "    int __global__x = __ldg(c) + my__ldg;\n"
                  "}\n"
                  "__device__ __forceinline__ float f(); __host__ __noinline__ void g();\n"
                  "__global__ void __launch_bounds__(256) h();\n",
                  "SIM_GLOBAL void k(float *__restrict__ c)\n"
                  "{\n"
                  "    SIM_SHARED float t[4]; // __shared__ tile\n"
                  "    sim_syncthreads(); puts(\"__syncthreads\");\n"
                  "    int __global__x = sim_ldg(c) + my__ldg;\n"
                  "}\n"
                  "SIM_DEVICE SIM_FORCEINLINE float f(); SIM_HOST SIM_NOINLINE void g();\n"
                  "SIM_GLOBAL void SIM_LAUNCH_BOUNDS(256) h();\n");
    // In a launch's configuration and arguments too.
    check_rewrite("k<<<g, b>>>(__ldg(p));\n", "k % sim_cfg(g, b)(sim_ldg(p));\n");
}
END_TEST

// A __device__ variable is registered after its declaration, on its line,
// so that check mode knows its accesses for global memory; every name of a
// declaration, its initialisers skipped.  Functions, extern declarations
// and template arguments register nothing.
#define REGISTER(name) " SIM_REGISTER_VARIABLE(device, " name ")"
#define REGISTER_MANAGED(name) " SIM_REGISTER_VARIABLE(managed, " name ")"

START_TEST(device_variables_registered)
{
    check_rewrite("__device__ int side = 16;\n"
                  "__device__ const float one = f(1, 2), two{2.0f}, *p;\n"
                  "extern __device__ float later[4];\n"
                  "__device__ __align__(16) float later[4] = {1, 2};\n"
                  "__device__ Pair<int, 3> pairs[2][3];\n"
                  "__device__ __forceinline__ float f(int x) { return x; }\n"
                  "template <int N> __device__ float g(float (&a)[N]);\n",
                  "SIM_DEVICE int side = 16;" REGISTER("side") "\n"
                  "SIM_DEVICE const float one = f(1, 2), two{2.0f}, *p;" REGISTER("one") REGISTER("two")
                  REGISTER("p") "\n"
                  "extern SIM_DEVICE float later[4];\n"
                  "SIM_DEVICE SIM_ALIGN(16) float later[4] = {1, 2};" REGISTER("later") "\n"
                  "SIM_DEVICE Pair<int, 3> pairs[2][3];" REGISTER("pairs") "\n"
                  "SIM_DEVICE SIM_FORCEINLINE float f(int x) { return x; }\n"
                  "template <int N> SIM_DEVICE float g(float (&a)[N]);\n");
    // Declarations whose name this scan does not read register nothing.
    check_rewrite("template <class T> __device__ T zero = T(0);\n"
                  "__device__ struct Pt { int x; } pt;\n"
                  "__device__ Pt operator=(Pt a);\n",
                  "template <class T> SIM_DEVICE T zero = T(0);\n"
                  "SIM_DEVICE struct Pt { int x; } pt;\n"
                  "SIM_DEVICE Pt operator=(Pt a);\n");
    // __managed__, alone or with __device__, registers as memory the host shares.
    check_rewrite("__device__ __managed__ float m[4];\n__managed__ int k;\n",
                  "SIM_DEVICE SIM_MANAGED float m[4];" REGISTER_MANAGED("m") "\n"
                  "SIM_MANAGED int k;" REGISTER_MANAGED("k") "\n");
    // The last line of a file without its newline still registers.
    check_rewrite("__device__ float x;", "SIM_DEVICE float x;" REGISTER("x"));
}
END_TEST

// Inline assembly (PTX, which only a GPU runs): the statement up to its
// closing parenthesis becomes SIM_INLINE_ASSEMBLY, an error that names it,
// with the statement's newlines kept; the word elsewhere is left alone.
START_TEST(inline_assembly_replaced)
{
    check_rewrite("{ float v; asm volatile(\"ld.global.nc.f32 %0, [%1];\" : \"=f\"(v) : \"l\"(p)); }\n",
                  "{ float v; SIM_INLINE_ASSEMBLY; }\n");
    check_rewrite("__asm__ __volatile__ (\n  \"mov.u32 %0, %%laneid;\" // the lane's index\n  : \"=r\"(l));\nint x;\n",
                  "SIM_INLINE_ASSEMBLY\n\n;\nint x;\n");
    check_rewrite("__asm(\"trap;\");\n", "SIM_INLINE_ASSEMBLY;\n");
    // In a macro over several lines, the definition goes on past it.
    check_rewrite("#define LDG(v, p) \\\n  asm volatile(\"ld.global.nc.f32 %0, [%1];\" \\\n : \"=f\"(v) : \"l\"(p)); \\\n  v += 1\n",
                  "#define LDG(v, p) \\\n  SIM_INLINE_ASSEMBLY \\\n; \\\n  v += 1\n");
    // A string or comment that mentions it, a longer name, a word with no
    // operands after it: not inline assembly.
    check_rewrite("puts(\"asm(x)\"); // asm volatile(y)\nint asm_count; int x = asm_count;\n",
                  "puts(\"asm(x)\"); // asm volatile(y)\nint asm_count; int x = asm_count;\n");
}
END_TEST

static Suite *rewrite_suite(void)
{
    Suite *s = suite_create("rewrite_launch");
    TCase *tc = tcase_create("rewrite");
    tcase_add_test(tc, line_header);
    tcase_add_test(tc, simple_launch);
    tcase_add_test(tc, template_and_namespaced_names);
    tcase_add_test(tc, dynamic_shared_in_a_function);
    tcase_add_test(tc, dynamic_shared_at_file_scope);
    tcase_add_test(tc, dynamic_shared_in_a_namespace);
    tcase_add_test(tc, compiler_macros);
    tcase_add_test(tc, alignas_in_shared_declarations);
    tcase_add_test(tc, names_hiding_built_in_variables);
    tcase_add_test(tc, device_shared_not_registered);
    tcase_add_test(tc, extern_left_alone);
    tcase_add_test(tc, string_literals);
    tcase_add_test(tc, raw_strings);
    tcase_add_test(tc, char_literals);
    tcase_add_test(tc, comments);
    tcase_add_test(tc, shifts_in_config_and_args);
    tcase_add_test(tc, template_ending_in_triple_angle);
    tcase_add_test(tc, template_call_in_config);
    tcase_add_test(tc, several_launches_on_one_line);
    tcase_add_test(tc, launch_like_text_in_args);
    tcase_add_test(tc, config_over_several_lines);
    tcase_add_test(tc, crlf_line_endings);
    tcase_add_test(tc, byte_order_mark_left_out);
    tcase_add_test(tc, no_launches_unchanged);
    tcase_add_test(tc, unmatched_open);
    tcase_add_test(tc, comparison_in_config);
    tcase_add_test(tc, digit_separators_and_arrow);
    tcase_add_test(tc, operator_shift_specialisation);
    tcase_add_test(tc, cuda_names_respelled);
    tcase_add_test(tc, device_variables_registered);
    tcase_add_test(tc, inline_assembly_replaced);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(rewrite_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
