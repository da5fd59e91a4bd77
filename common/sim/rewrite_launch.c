// Rewrites `k<<<cfg>>>(args)` into `k % sim_cfg(cfg)(args)`, and CUDA's
// reserved names (`__global__`, `__syncthreads`, ...) into the simulator's
// spellings of them (cuda_spellings.h says why), registers each
// `__device__` variable with the simulator after its declaration, turns
// inline assembly into an error that names it, and respells a name of the
// lab file's own that hides a built-in variable (`dim3 blockDim(...)`).
//
// This is a small lexer rather than a text search because `<<<` and `>>>`
// also turn up where they are not a launch: in string, raw-string and char
// literals, in comments, and (for `>>>`) where a template argument list ends
// just before a `>` or `>>`.  The lexer only splits the text into spaces,
// comments, literals, numbers, identifiers and single punctuation
// characters; everything else about C++ is ignored.
//
// Finding the `>>>` that closes a configuration: inside the configuration
// the scanner tracks ( [ { nesting and, for each nesting level separately,
// how many template angles are open.  A `<` opens an angle when the token
// before it is an identifier or a `>` and it is not part of `<<` or `<=`
// (`std::max<int>(...)`, `grid_for<T<2>>`).  A `>` closes an angle of the
// current level when one is open, one character at a time, so the `>>>` that
// ends `T<2>>>` first closes the two angles and leaves a plain `>`.  The
// configuration ends at the first `>>>` met at nesting level 0 with no angle
// open there.  Angles still open when their bracket closes are dropped, so
// a comparison in parentheses, `f(a < b)`, costs nothing.
//
// Known limits (all need code a lab would not write):
// - `a < b` at the top level of a configuration looks like a template.  If
//   that makes the scan run past the end of the configuration, it is
//   retried without angle tracking, which finds the first `>>>`; that is
//   right unless the same configuration also ends a template with `>>>`.
//   Parenthesising the comparison always works.
// - A configuration ends at the first `;` or unmatched ) ] } outside
//   brackets, so an unclosed `<<<` is reported at its own line instead of
//   swallowing the next launch; a `;` inside a lambda in brackets is fine.
// - `operator<<<int>` (an explicit specialisation of operator<<) is left
//   alone; other `<<<` are launches wherever they appear in code, macros
//   included, and launches nested inside a configuration are not rewritten.
// - `extern __shared__ T name[];` is a function's local pointer inside a
//   function (or any braces but a namespace's or an `extern "C"` block's)
//   and a macro elsewhere, so a name qualified by its namespace
//   (`lab::tiles`) does not compile; the plain name does.
// - A `__device__` declaration is a variable's when no `(` comes before its
//   first `[ = { , ;` (attributes and __align__ aside): a function pointer
//   or a variable initialised with parentheses, `__device__ T x(3);`, is
//   not registered, and check mode counts a kernel's accesses to it as host
//   memory.  Neither is a variable template, one whose declaration defines
//   a struct, class, union or enum, an `extern` declaration (the
//   definition registers it), or shared memory (`__device__ __shared__`).
// - A variable, parameter or member named like a built-in variable
//   (threadIdx, blockIdx, blockDim, gridDim: macros in cuda_sim.h) is seen
//   where its name follows another identifier (`dim3 gridDim(...)`,
//   `void f(dim3 blockDim)`; not after a keyword such as `return`) or a
//   `.` or `->`: that name, and the uses it hides until its scope closes,
//   become sim_own_<name>.  One declared after a `,`, `*` or `&`
//   (`dim3 grid, blockDim;`) is not seen, and does not compile.
// - Literals and `//` comments end at an unescaped newline, as in the
//   preprocessor, so a stray apostrophe (say in `#if 0` prose) only affects
//   its own line.  Trigraphs and digraphs are not recognised.
#include "rewrite_launch.h"

#include <string.h>

#include "cuda_spellings.h"

struct spelling { const char *cuda, *sim; };
#define SIM_SPELLING_ENTRY(cuda, sim) {#cuda, #sim},
static const struct spelling spellings[] = {SIM_CUDA_SPELLINGS(SIM_SPELLING_ENTRY)};
#undef SIM_SPELLING_ENTRY
enum { SPELLING_COUNT = sizeof spellings / sizeof spellings[0] };

// The simulator's spelling of the identifier s[0, n), or NULL when it is
// not one of the names cuda_spellings.h renames.
static const char *sim_spelling(const char *s, size_t n)
{
    if (n < 4)
        return NULL;
    for (size_t k = 0; k < SPELLING_COUNT; k++) {
        if (strlen(spellings[k].cuda) == n && memcmp(s, spellings[k].cuda, n) == 0)
            return spellings[k].sim;
    }
    return NULL;
}

// CUDA's built-in variables, which cuda_sim.h defines as macros.  A lab
// file may name a variable, parameter or member of its own so (launch
// code often says `dim3 gridDim(...), blockDim(...)`): to nvcc an ordinary
// name that hides the built-in, to the simulator's compiler the macro's
// expansion.  Such a name is respelled with this prefix, where it is
// declared and where it hides the built-in.
static const char *const builtin_variables[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
enum { BUILTIN_COUNT = sizeof builtin_variables / sizeof builtin_variables[0] };
#define OWN_NAME_PREFIX "sim_own_"

static int builtin_variable(const char *s, size_t n)
{
    for (int k = 0; k < BUILTIN_COUNT; k++)
        if (strlen(builtin_variables[k]) == n && memcmp(s, builtin_variables[k], n) == 0)
            return k;
    return -1;
}

void print_spellings(FILE *out)
{
    for (size_t k = 0; k < SPELLING_COUNT; k++)
        fprintf(out, "%s\t%s\n", spellings[k].sim, spellings[k].cuda);
    for (int k = 0; k < BUILTIN_COUNT; k++)
        fprintf(out, OWN_NAME_PREFIX "%s\t%s\n", builtin_variables[k], builtin_variables[k]);
}

enum tok_kind { TOK_SPACE, TOK_COMMENT, TOK_LITERAL, TOK_NUMBER, TOK_IDENT, TOK_PUNCT };

// Nesting deeper than this in one configuration is reported as an error
// rather than handled, to keep the angle counts in a fixed array.
enum { MAX_NESTING = 256 };

// The byte at i, or -1 past the end, so lookahead never needs its own
// bounds check.
static int peek(const char *s, size_t len, size_t i)
{
    return i < len ? (unsigned char)s[i] : -1;
}

static int starts_with(const char *s, size_t len, size_t i, const char *word)
{
    size_t n = strlen(word);
    return i <= len && len - i >= n && memcmp(s + i, word, n) == 0;
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

// Bytes >= 0x80 count as identifier characters so UTF-8 names lex as one
// identifier.
static int is_ident_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' ||
           c == '$' || c >= 0x80;
}

// Length of a newline at i: 1 for LF, 2 for CRLF, 0 otherwise.
static size_t newline_at(const char *s, size_t len, size_t i)
{
    if (peek(s, len, i) == '\n')
        return 1;
    if (peek(s, len, i) == '\r' && peek(s, len, i + 1) == '\n')
        return 2;
    return 0;
}

// i is at the opening quote.  Stops before an unescaped newline, like the
// preprocessor, so an unterminated literal cannot hide the rest of the file.
static size_t skip_quoted(const char *s, size_t len, size_t i)
{
    int quote = s[i];
    size_t j = i + 1;
    while (j < len) {
        if (s[j] == '\\') {
            size_t nl = newline_at(s, len, j + 1);
            j += 1 + (nl ? nl : 1);  // an escaped newline is a line splice
        } else if (s[j] == quote) {
            return j + 1;
        } else if (s[j] == '\n') {
            return j;
        } else {
            j++;
        }
    }
    return len;
}

// i is at the `"` after a raw-string prefix.  Returns the end of the raw
// string, or 0 when the delimiter is malformed so the caller can fall back
// to an ordinary string.
static size_t skip_raw_string(const char *s, size_t len, size_t i)
{
    size_t d = i + 1, open = d;
    while (open < len && s[open] != '(') {
        int c = (unsigned char)s[open];
        if (open - d >= 16 || c == ' ' || c == ')' || c == '\\' || c < 0x20 || c == 0x7f)
            return 0;
        open++;
    }
    if (open >= len)
        return 0;
    size_t dlen = open - d;
    for (size_t j = open + 1; j < len; j++) {
        if (s[j] == ')' && len - j >= dlen + 2 && memcmp(s + j + 1, s + d, dlen) == 0 &&
            s[j + 1 + dlen] == '"')
            return j + dlen + 2;
    }
    return len;
}

static int is_raw_prefix(const char *s, size_t n)
{
    static const char *const prefixes[] = {"R", "LR", "uR", "UR", "u8R"};
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
        if (strlen(prefixes[k]) == n && memcmp(s, prefixes[k], n) == 0)
            return 1;
    }
    return 0;
}

// A preprocessing number, which swallows digit separators (1'000'000) so
// their apostrophes are not taken for char literals, and exponent signs.
static size_t skip_number(const char *s, size_t len, size_t i)
{
    size_t j = i + 1;
    while (j < len) {
        int c = (unsigned char)s[j];
        int prev = (unsigned char)s[j - 1];
        if ((c == '+' || c == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P'))
            j++;
        else if (is_ident_char(c) || c == '.')
            j++;
        else if (c == '\'' && is_ident_char(peek(s, len, j + 1)))
            j++;
        else
            break;
    }
    return j;
}

// Returns the end of the token at i (i < len) and its kind in *kind.
// Newlines are spaces; the newline ending a `//` comment is not part of it.
static size_t next_token(const char *s, size_t len, size_t i, enum tok_kind *kind)
{
    int c = (unsigned char)s[i];
    int c1 = peek(s, len, i + 1);

    *kind = TOK_SPACE;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
        return i + 1;
    if (c == '\\' && newline_at(s, len, i + 1))
        return i + 1 + newline_at(s, len, i + 1);

    *kind = TOK_COMMENT;
    if (c == '/' && c1 == '/') {
        size_t j = i + 2;
        while (j < len && s[j] != '\n') {
            size_t nl = s[j] == '\\' ? newline_at(s, len, j + 1) : 0;
            j += 1 + nl;  // a spliced newline continues the comment
        }
        return j;
    }
    if (c == '/' && c1 == '*') {
        for (size_t j = i + 2; j + 1 < len; j++) {
            if (s[j] == '*' && s[j + 1] == '/')
                return j + 2;
        }
        return len;
    }

    *kind = TOK_LITERAL;
    if (c == '"' || c == '\'')
        return skip_quoted(s, len, i);

    *kind = TOK_NUMBER;
    if (is_digit(c) || (c == '.' && is_digit(c1)))
        return skip_number(s, len, i);

    if (is_ident_char(c)) {
        size_t end = i + 1;
        while (end < len && is_ident_char((unsigned char)s[end]))
            end++;
        // An encoding prefix without R (u8"x", L'x') needs nothing special:
        // the literal after it lexes as usual.
        if (peek(s, len, end) == '"' && is_raw_prefix(s + i, end - i)) {
            size_t raw_end = skip_raw_string(s, len, end);
            if (raw_end) {
                *kind = TOK_LITERAL;
                return raw_end;
            }
        }
        *kind = TOK_IDENT;
        return end;
    }

    *kind = TOK_PUNCT;
    return i + 1;
}

// Looks for the `>>>` closing a configuration that starts at `start` (just
// after its `<<<`).  Returns 0 and its position in *close, or -1 when the
// configuration runs into the end of the file, a `;` or an unmatched
// closing bracket first.  See the top of the file for the angle rules.
static int find_config_end(const char *s, size_t len, size_t start, int track_angles,
                           size_t *close)
{
    int angles[MAX_NESTING];  // open template angles per nesting level
    int level = 0;
    int angle_may_open = 0;  // previous token was an identifier or `>`
    size_t i = start;

    angles[0] = 0;
    while (i < len) {
        enum tok_kind kind;
        size_t end = next_token(s, len, i, &kind);
        int may_open = angle_may_open;

        if (kind == TOK_SPACE || kind == TOK_COMMENT) {
            i = end;
            continue;
        }
        angle_may_open = kind == TOK_IDENT;
        if (kind != TOK_PUNCT) {
            i = end;
            continue;
        }
        switch (s[i]) {
        case '(':
        case '[':
        case '{':
            if (++level >= MAX_NESTING)
                return -1;
            angles[level] = 0;
            break;
        case ')':
        case ']':
        case '}':
            if (level == 0)
                return -1;
            level--;
            break;
        case ';':
            if (level == 0)
                return -1;
            break;
        case '<':
            // Whole operators are stepped over so their second character is
            // not taken for a `<` of its own.
            if (starts_with(s, len, i, "<=>"))
                end = i + 3;
            else if (starts_with(s, len, i, "<<") || starts_with(s, len, i, "<="))
                end = i + 2;
            else if (track_angles && may_open)
                angles[level]++;
            break;
        case '>':
            if (level == 0 && angles[0] == 0 && starts_with(s, len, i, ">>>")) {
                *close = i;
                return 0;
            }
            if (track_angles && angles[level] > 0)
                angles[level]--;
            angle_may_open = 1;
            break;
        case '-':
            // `->` would otherwise look like a `>` closing an angle.
            if (peek(s, len, i + 1) == '>')
                end = i + 2;
            break;
        }
        i = end;
    }
    return -1;
}

static size_t line_of(const char *s, size_t pos)
{
    size_t line = 1;
    for (size_t i = 0; i < pos; i++)
        line += s[i] == '\n';
    return line;
}

static void set_error(char *err, size_t errlen, const char *path, size_t line, const char *what)
{
    if (err && errlen > 0)
        snprintf(err, errlen, "%s:%zu: %s", path, line, what);
}

// The `#line` header names the file in a C string literal, so quotes,
// backslashes and control characters in the path are escaped.
static void write_line_directive(FILE *out, size_t line, const char *path)
{
    fprintf(out, "#line %zu \"", line);
    for (const char *p = path; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\%03o", c);
        else
            fputc(c, out);
    }
    fputs("\"\n", out);
}

static void write_line_header(FILE *out, const char *path) { write_line_directive(out, 1, path); }

static int token_is(const char *s, size_t i, size_t end, const char *word)
{
    return end - i == strlen(word) && memcmp(s + i, word, end - i) == 0;
}

// The next token at or after i that is not a space or a comment.
static size_t next_significant(const char *s, size_t len, size_t i, size_t *end, enum tok_kind *kind)
{
    while (i < len) {
        *end = next_token(s, len, i, kind);
        if (*kind != TOK_SPACE && *kind != TOK_COMMENT)
            return i;
        i = *end;
    }
    *end = len;
    *kind = TOK_SPACE;
    return len;
}

// Writes the type of a dynamic shared declaration, s[from, to), its tokens
// one space apart, in the simulator's spellings, without alignment
// (`__align__(16)`, `alignas(16)`): the buffer is 128-byte aligned, and a
// pointer's type has no alignment.
static void write_shared_type(const char *s, size_t from, size_t to, FILE *out)
{
    size_t i = from, written = 0;
    while (i < to) {
        enum tok_kind kind;
        size_t end = next_token(s, to, i, &kind);
        if (kind == TOK_IDENT && (token_is(s, i, end, "__align__") || token_is(s, i, end, "alignas"))) {
            size_t open_end, j = next_significant(s, to, end, &open_end, &kind);
            if (j < to && s[j] == '(') {
                int depth = 0;
                for (j = open_end - 1; j < to; j++) {
                    depth += s[j] == '(';
                    depth -= s[j] == ')';
                    if (depth == 0)
                        break;
                }
                i = j < to ? j + 1 : to;
                continue;
            }
        }
        if (kind != TOK_SPACE && kind != TOK_COMMENT) {
            if (written++)
                fputc(' ', out);
            if (kind == TOK_IDENT && sim_spelling(s + i, end - i))
                fputs(sim_spelling(s + i, end - i), out);
            else
                fwrite(s + i, 1, end - i, out);
        }
        i = end;
    }
}

// `extern __shared__ T name[];` at src[at] (the `extern`): the block's
// dynamic shared memory, sized by the launch's third argument.  Inside a
// function it becomes a pointer of the same name to the simulator's
// buffer; at file scope, where a variable would be set once for every
// block, a macro of that name.  Returns 1 with *resume just past the `;`
// when it wrote src[copied, at) and the replacement, else 0 having written
// nothing (not such a declaration).
static int rewrite_dynamic_shared(const char *src, size_t len, size_t copied, size_t at, int depth,
                                  const char *path, FILE *out, size_t *resume)
{
    enum tok_kind kind;
    size_t end, i = next_significant(src, len, at + 6, &end, &kind);
    if (kind != TOK_IDENT || !token_is(src, i, end, "__shared__"))
        return 0;
    size_t type_start = end, last[3] = {0, 0, 0}, last_end = 0;
    int parens = 0;
    for (i = end; i < len; i = end) {
        i = next_significant(src, len, i, &end, &kind);
        if (i >= len)
            return 0;
        char c = src[i];
        if (kind == TOK_PUNCT && (c == '{' || c == '}' || c == '='))
            return 0;
        parens += kind == TOK_PUNCT && c == '(';
        parens -= kind == TOK_PUNCT && c == ')';
        if (kind == TOK_PUNCT && c == ';' && parens == 0)
            break;
        last[0] = last[1];
        last[1] = last[2];
        last[2] = i;
        last_end = end;
    }
    size_t name = last[0];
    if (!name || src[last[1]] != '[' || src[last[2]] != ']' || last_end != last[2] + 1)
        return 0;
    size_t name_end = next_token(src, len, name, &kind);
    if (kind != TOK_IDENT)
        return 0;
    fwrite(src + copied, 1, at - copied, out);  // the code before the declaration
    if (depth > 0) {
        write_shared_type(src, type_start, name, out);
        fputs(" *", out);
        fwrite(src + name, 1, name_end - name, out);
        fputs(" = reinterpret_cast<decltype(", out);
        fwrite(src + name, 1, name_end - name, out);
        fputs(")>(sim::dynamic_shared_memory());", out);
        for (size_t k = at; k < i; k++)
            if (src[k] == '\n')
                fputc('\n', out);  // every newline kept: later lines keep their numbers
    } else {
        fputs("\n#define ", out);
        fwrite(src + name, 1, name_end - name, out);
        fputs(" (reinterpret_cast<", out);
        write_shared_type(src, type_start, name, out);
        fputs(" *>(sim::dynamic_shared_memory()))\n", out);
        write_line_directive(out, line_of(src, i), path);
    }
    *resume = i + 1;
    return 1;
}

// `__device__` before a variable rather than a function: the names it
// declares, so that check mode can tell a kernel's accesses to them (global
// memory on a GPU) from accesses to host memory.  The simulator keeps such
// a variable in ordinary host memory; after the declaration's `;` the
// rewrite registers each one (sim::register_device_variable), on the same
// line.  A declaration is a variable's when a `[`, `=`, `{`, `,` or `;`
// comes before any `(` (attributes and __align__ skipped); `from` is just
// past `__device__`.  Returns how many names were stored (at most max),
// with *statement_end just past the `;`, or 0 for a function or anything
// not understood (then check mode counts accesses to it as host memory).
enum { MOST_DEVICE_NAMES = 16 };

static int device_variable_names(const char *src, size_t len, size_t from, size_t names[][2], int max,
                                 size_t *statement_end)
{
    int count = 0, nesting = 0, angles = 0, in_initializer = 0, named = 0, skip_group = 0;
    size_t last[2] = {0, 0};
    enum tok_kind kind, prev_kind = TOK_SPACE;
    for (size_t i = from, end; i < len; i = end) {
        end = next_token(src, len, i, &kind);
        if (kind == TOK_SPACE || kind == TOK_COMMENT)
            continue;
        char c = kind == TOK_PUNCT ? src[i] : '\0';
        if (nesting > 0 || (in_initializer && c != ',' && c != ';')) {
            if (c == '(' || c == '[' || c == '{')
                nesting++;
            else if ((c == ')' || c == ']' || c == '}') && --nesting < 0)
                return 0;
        } else if (kind == TOK_IDENT) {
            // A type defined in the declaration, or an operator: left alone.
            // `__device__ __shared__` is shared memory (CUDA allows the
            // pair), each block's own: not a variable of global memory.
            if (token_is(src, i, end, "struct") || token_is(src, i, end, "class") ||
                token_is(src, i, end, "union") || token_is(src, i, end, "enum") ||
                token_is(src, i, end, "operator") || token_is(src, i, end, "__shared__"))
                return 0;
            if (token_is(src, i, end, "__attribute__") || token_is(src, i, end, "__align__") ||
                token_is(src, i, end, "alignas"))
                skip_group = 1;
            else if (!angles) {
                last[0] = i;
                last[1] = end;
            }
        } else if (c == '<' && prev_kind == TOK_IDENT) {
            angles++;
        } else if (c == '>' && angles) {
            angles--;
        } else if (c == '(') {
            if (!skip_group)
                return 0;  // a function (or something this scan does not read)
            skip_group = 0;
            nesting++;
        } else if (!angles && (c == '[' || c == '=' || c == '{' || c == ',' || c == ';')) {
            if (!named && last[1] > last[0]) {
                if (count == max)
                    return 0;
                names[count][0] = last[0];
                names[count][1] = last[1];
                count++;
                named = 1;
            }
            if (c == '[' || c == '{')
                nesting++;
            in_initializer = c == '=' || c == '{' ? 1 : in_initializer;
            if (c == ',') {
                named = in_initializer = 0;
                last[0] = last[1] = 0;
            }
            if (c == ';') {
                *statement_end = end;
                return count;
            }
        }
        prev_kind = kind;
    }
    return 0;
}

// Registers the variables device_variable_names found, with no newline:
// as device memory, or, declared `__managed__`, as memory the host shares.
// A macro of cuda_sim.h names each registration afresh (__COUNTER__), so a
// declaration inside a macro the file uses twice still compiles.
static void write_device_variable_registrations(const char *src, size_t names[][2], int count, int managed,
                                                FILE *out)
{
    for (int k = 0; k < count; k++) {
        size_t n = names[k][1] - names[k][0];
        fprintf(out, " SIM_REGISTER_VARIABLE(%s, %.*s)", managed ? "managed" : "device", (int)n, src + names[k][0]);
    }
}

// `asm`, `__asm__` or `__asm` at src[at, from): an inline assembly
// statement, whose PTX only a GPU runs.  Its qualifiers (volatile, inline,
// goto) and parenthesised operands are replaced by SIM_INLINE_ASSEMBLY,
// which cuda_sim.h makes a compile error that says so (a limit of the kit),
// instead of the compiler's confusion over PTX constraints.  The newlines
// inside are kept, spliced ones spliced (a macro's definition goes on), so
// later lines keep their numbers.  Returns 1 with *resume just past the `)`
// when it wrote src[copied, at) and the replacement, else 0 having written
// nothing.
static int rewrite_inline_assembly(const char *src, size_t len, size_t copied, size_t at, size_t from, FILE *out,
                                   size_t *resume)
{
    static const char *const qualifiers[] = {"volatile", "__volatile__", "__volatile", "inline", "__inline__", "goto"};
    enum tok_kind kind;
    size_t end, i = next_significant(src, len, from, &end, &kind);
    for (;;) {
        int qualifier = 0;
        for (size_t k = 0; kind == TOK_IDENT && k < sizeof qualifiers / sizeof qualifiers[0]; k++)
            qualifier |= token_is(src, i, end, qualifiers[k]);
        if (!qualifier)
            break;
        i = next_significant(src, len, end, &end, &kind);
    }
    if (kind != TOK_PUNCT || src[i] != '(')
        return 0;
    int nesting = 0;
    for (; i < len; i = end) {
        end = next_token(src, len, i, &kind);
        if (kind != TOK_PUNCT)
            continue;
        nesting += src[i] == '(';
        if (src[i] == ')' && --nesting == 0)
            break;
    }
    if (i >= len)
        return 0;
    fwrite(src + copied, 1, at - copied, out);
    fputs("SIM_INLINE_ASSEMBLY", out);
    for (size_t k = at; k < end; k++) {
        if (src[k] != '\n')
            continue;
        // A spliced newline stays spliced: inside a macro's definition it
        // must not end the definition.
        size_t before = k > at && src[k - 1] == '\r' ? k - 1 : k;
        fputs(before > at && src[before - 1] == '\\' ? " \\\n" : "\n", out);
    }
    *resume = end;
    return 1;
}

// Keywords after which a name is used, not declared (`return gridDim.x`).
static int is_expression_keyword(const char *s, size_t n)
{
    static const char *const words[] = {"return", "case", "sizeof", "alignof", "decltype", "typeid", "throw",
                                        "new", "delete", "else", "do", "co_return", "co_yield", "co_await",
                                        "and", "or", "not", "xor", "bitand", "bitor", "compl", "goto", "operator"};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (strlen(words[k]) == n && memcmp(s, words[k], n) == 0)
            return 1;
    return 0;
}

// The lab file's own names that hide a built-in variable, innermost last.
// A parameter's scope is the body after its parameter list (none for a
// prototype: it ends at the `;`); another name's, the rest of the braces it
// is declared in.
struct own_name {
    int builtin;
    int depth;      // brace depth at the declaration
    int parameter;  // declared inside parentheses
    int entered;    // a parameter's body has been entered
};
enum { MOST_OWN_NAMES = 64 };

static int hides_builtin(const struct own_name *names, int count, int builtin)
{
    for (int k = 0; k < count; k++)
        if (names[k].builtin == builtin)
            return 1;
    return 0;
}

// Drops the names whose scope a `}` (now at depth) or a `;` has closed.
static int close_own_names(struct own_name *names, int count, int depth, int semicolon, int parens)
{
    int kept = 0;
    for (int k = 0; k < count; k++) {
        const struct own_name *n = &names[k];
        int closed = n->parameter ? (semicolon ? !n->entered && parens == 0 && depth == n->depth
                                               : n->entered && depth <= n->depth)
                                  : !semicolon && depth < n->depth;
        if (!closed)
            names[kept++] = *n;
    }
    return kept;
}

int rewrite_launches(const char *src, size_t len, FILE *out, const char *display_path,
                     char *err, size_t errlen)
{
    const char *path = display_path ? display_path : "<input>";
    size_t copied = 0;  // src[0, copied) has been written
    size_t i = 0;
    int after_operator = 0;  // previous token was the keyword `operator`
    int after_extern = 0;    // previous token was the keyword `extern`
    int template_head = 0;   // `template` seen in this declaration (a variable template is not registered)
    // Braces open, namespace bodies and `extern "C" { }` blocks apart: 0
    // where a variable would be made once for the whole program.  (A
    // namespace opens only where depth is 0, so a `}` there closes one.)
    int depth = 0;
    int namespace_head = 0;  // `namespace` seen, its `{` not yet
    int linkage_head = 0;    // `extern "C"` just seen
    // Inside the specifiers of a `__shared__` declaration, before its name's
    // `[` (or its `;`): an `alignas` there would stand among the simulator's
    // specifiers, where C++ allows none, so it is respelled (cuda_sim.h).
    int shared_specifiers = 0;
    size_t device_names[MOST_DEVICE_NAMES][2];
    int device_name_count = 0;  // __device__ variables to register at device_statement_end
    int device_names_managed = 0;  // ... and declared __managed__
    size_t device_statement_end = 0;
    struct own_name own_names[MOST_OWN_NAMES];
    int own_name_count = 0;
    int parens = 0;                // ( open
    size_t prev = 0, prev_end = 0; // the previous token that is neither space nor comment
    enum tok_kind prev_kind = TOK_SPACE;
    int line_start = 1;            // no such token on this line yet
    int directive = 0;             // on a preprocessor line
    size_t config_end = 0;         // inside a launch's configuration: where its `>>>` is

    if (err && errlen > 0)
        err[0] = '\0';
    write_line_header(out, path);
    // A UTF-8 byte-order mark (Visual Studio's "UTF-8 with signature") is
    // skipped by a compiler only as the first bytes of a file; after the
    // #line header it would be a stray character, so it is left out.
    if (starts_with(src, len, 0, "\xef\xbb\xbf"))
        copied = i = 3;
    while (i < len) {
        enum tok_kind kind;
        if (device_name_count && i >= device_statement_end) {
            fwrite(src + copied, 1, device_statement_end - copied, out);
            copied = device_statement_end;
            write_device_variable_registrations(src, device_names, device_name_count, device_names_managed, out);
            device_name_count = device_names_managed = 0;
        }
        size_t end = next_token(src, len, i, &kind);

        // A configuration's own tokens are read like the rest (a name in it
        // may be respelled); its `>>>` closes the call to sim_cfg.
        if (config_end && i == config_end) {
            fwrite(src + copied, 1, i - copied, out);
            fputc(')', out);
            copied = end = i + 3;
            config_end = 0;
            kind = TOK_PUNCT;
        } else if (kind == TOK_PUNCT && !after_operator && !config_end && starts_with(src, len, i, "<<<")) {
            size_t close;
            if (find_config_end(src, len, i + 3, 1, &close) != 0 &&
                find_config_end(src, len, i + 3, 0, &close) != 0) {
                set_error(err, errlen, path, line_of(src, i), "'<<<' has no matching '>>>'");
                return 1;
            }
            fwrite(src + copied, 1, i - copied, out);
            fputs(" % sim_cfg(", out);
            copied = end = i + 3;
            config_end = close;
        }
        if (kind == TOK_PUNCT && src[i] == '{') {
            if (depth > 0 || !(namespace_head || linkage_head))
                depth++;
            for (int k = 0; k < own_name_count; k++)
                if (own_names[k].parameter && parens == 0 && depth > own_names[k].depth)
                    own_names[k].entered = 1;
        } else if (kind == TOK_PUNCT && src[i] == '}' && depth > 0) {
            depth--;
            own_name_count = close_own_names(own_names, own_name_count, depth, 0, parens);
        } else if (kind == TOK_PUNCT && src[i] == ';') {
            own_name_count = close_own_names(own_names, own_name_count, depth, 1, parens);
        } else if (kind == TOK_PUNCT && src[i] == '(') {
            parens++;
        } else if (kind == TOK_PUNCT && src[i] == ')' && parens > 0) {
            parens--;
        }
        // A namespace's name may be qualified (`a::b`) and an attribute may
        // stand before its `{`; a linkage block's `{` follows its string.
        // Anything else (`namespace cg = ...;`, `extern "C" void f()`) opens
        // no such body.
        if (kind == TOK_IDENT && token_is(src, i, end, "namespace"))
            namespace_head = 1;
        else if (kind == TOK_LITERAL && after_extern)
            linkage_head = 1;
        else if (kind != TOK_SPACE && kind != TOK_COMMENT) {
            linkage_head = 0;
            if (kind == TOK_PUNCT && src[i] != ':' && src[i] != '[' && src[i] != ']')
                namespace_head = 0;
        }
        size_t resume;
        if (kind == TOK_IDENT && token_is(src, i, end, "extern") &&
            rewrite_dynamic_shared(src, len, copied, i, depth, path, out, &resume)) {
            copied = end = resume;
        } else if (kind == TOK_IDENT &&
                   (token_is(src, i, end, "asm") || token_is(src, i, end, "__asm__") || token_is(src, i, end, "__asm")) &&
                   rewrite_inline_assembly(src, len, copied, i, end, out, &resume)) {
            copied = end = resume;
        } else if (kind == TOK_IDENT && shared_specifiers && token_is(src, i, end, "alignas")) {
            fwrite(src + copied, 1, i - copied, out);
            fputs("SIM_ALIGNAS", out);
            copied = end;
        } else if (kind == TOK_IDENT && !directive && builtin_variable(src + i, end - i) >= 0) {
            int builtin = builtin_variable(src + i, end - i);
            int member = prev_kind == TOK_PUNCT &&
                         (src[prev] == '.' || (src[prev] == '>' && prev > 0 && src[prev - 1] == '-'));
            int declared = prev_kind == TOK_IDENT && !is_expression_keyword(src + prev, prev_end - prev);
            if (declared && own_name_count < MOST_OWN_NAMES)
                // A template's parameter, like a function's, lives in what follows.
                own_names[own_name_count++] = (struct own_name){builtin, depth, parens > 0 || template_head, 0};
            if (member || declared || hides_builtin(own_names, own_name_count, builtin)) {
                fwrite(src + copied, 1, i - copied, out);
                fputs(OWN_NAME_PREFIX, out);
                fwrite(src + i, 1, end - i, out);
                copied = end;
            }
        } else if (kind == TOK_IDENT) {
            const char *spelled = sim_spelling(src + i, end - i);
            if (spelled) {
                fwrite(src + copied, 1, i - copied, out);
                fputs(spelled, out);
                copied = end;
            }
            // An extern declaration defines nothing here (its size may be
            // unknown); the definition registers it.
            int managed = token_is(src, i, end, "__managed__");
            if (spelled && (managed || token_is(src, i, end, "__device__")) && !after_extern && !template_head &&
                !shared_specifiers && !device_name_count)
                device_name_count = device_variable_names(src, len, end, device_names, MOST_DEVICE_NAMES,
                                                          &device_statement_end);
            device_names_managed |= managed && device_name_count;
        }
        if (kind == TOK_PUNCT && (src[i] == ';' || src[i] == '{' || src[i] == '}'))
            template_head = 0;
        if (kind == TOK_IDENT && token_is(src, i, end, "__shared__"))
            shared_specifiers = 1;
        else if (kind == TOK_PUNCT && strchr(";{}=[,", src[i]))
            shared_specifiers = 0;
        // Preprocessor lines: a `#` first on its line starts one, which an
        // unspliced newline ends (a splice lexes as a space of its own).
        if (kind == TOK_SPACE && src[i] == '\n') {
            line_start = 1;
            directive = 0;
        } else if (kind != TOK_SPACE && kind != TOK_COMMENT) {
            directive = directive || (line_start && kind == TOK_PUNCT && src[i] == '#');
            line_start = 0;
            prev = i, prev_end = end, prev_kind = kind;
        }
        if (kind == TOK_IDENT) {
            template_head = template_head || token_is(src, i, end, "template");
            after_operator = token_is(src, i, end, "operator");
            after_extern = token_is(src, i, end, "extern") || (after_extern && sim_spelling(src + i, end - i));
        } else if (kind != TOK_SPACE && kind != TOK_COMMENT) {
            after_operator = after_extern = 0;
        }
        i = end;
    }
    fwrite(src + copied, 1, len - copied, out);
    if (device_name_count)
        write_device_variable_registrations(src, device_names, device_name_count, device_names_managed, out);
    if (fflush(out) != 0 || ferror(out)) {
        if (err && errlen > 0)
            snprintf(err, errlen, "%s: cannot write the rewritten file", path);
        return 1;
    }
    return 0;
}
