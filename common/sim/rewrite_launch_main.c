// rewrite_launch IN.cu OUT.cpp [DISPLAY_PATH]
// rewrite_launch --spellings      the simulator's names for CUDA's, a pair a line
//
// The build step in front of g++ for simulator builds (see rewrite_launch.h).
// DISPLAY_PATH, default IN.cu, is the name compiler errors will show.  OUT
// is written to a temporary file in the same directory and renamed into
// place, so an interrupted or failed run never leaves a half-written OUT for
// make to mistake for an up-to-date one; on failure an existing OUT is left
// as it was.
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rewrite_launch.h"

// Reads all of path into a malloc'd buffer; returns NULL with errno set.
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            errno = ENOMEM;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        int saved = errno;
        free(buf);
        buf = NULL;
        errno = saved ? saved : EIO;
    }
    fclose(f);
    *len = n;
    return buf;
}

// Writes the rewrite of src to a temporary file next to out_path and renames
// it over out_path.  Returns 0, or 1 after printing why.
static int write_atomically(const char *src, size_t len, const char *out_path,
                            const char *display_path)
{
    size_t tmp_size = strlen(out_path) + sizeof ".tmp.XXXXXX";
    char *tmp = malloc(tmp_size);
    char err[512];
    int fd;
    FILE *out;

    if (!tmp) {
        fprintf(stderr, "rewrite_launch: out of memory\n");
        return 1;
    }
    snprintf(tmp, tmp_size, "%s.tmp.XXXXXX", out_path);
    fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "rewrite_launch: %s: %s\n", tmp, strerror(errno));
        free(tmp);
        return 1;
    }
    // mkstemp makes the file 0600; give OUT the mode a plain fopen would.
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);

    out = fdopen(fd, "wb");
    if (!out) {
        fprintf(stderr, "rewrite_launch: %s: %s\n", tmp, strerror(errno));
        close(fd);
        goto fail;
    }
    if (rewrite_launches(src, len, out, display_path, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        fclose(out);
        goto fail;
    }
    if (fclose(out) != 0) {
        fprintf(stderr, "rewrite_launch: %s: %s\n", tmp, strerror(errno));
        goto fail;
    }
    if (rename(tmp, out_path) != 0) {
        fprintf(stderr, "rewrite_launch: %s: %s\n", out_path, strerror(errno));
        goto fail;
    }
    free(tmp);
    return 0;

fail:
    unlink(tmp);
    free(tmp);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--spellings") == 0) {
        print_spellings(stdout);
        return 0;
    }
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: rewrite_launch IN.cu OUT.cpp [DISPLAY_PATH] | --spellings\n");
        return 1;
    }
    const char *in_path = argv[1], *out_path = argv[2];
    const char *display_path = argc == 4 ? argv[3] : in_path;
    size_t len;
    char *src = read_file(in_path, &len);
    if (!src) {
        fprintf(stderr, "rewrite_launch: %s: %s\n", in_path, strerror(errno));
        return 1;
    }
    int rc = write_atomically(src, len, out_path, display_path);
    free(src);
    return rc;
}
