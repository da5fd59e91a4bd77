// The running program's file, by the path /proc/self/exe names.  Not by
// /proc/<pid>/exe itself: under an emulator (qemu-user running an aarch64
// build on x86-64, as make test-platforms does) a tool that opens that link
// from outside reads the emulator's file, while the program's own readlink
// of /proc/self/exe gives its real path.  The link stays the fallback for a
// file deleted or replaced since the program started.
#include "program_file.h"

#include <limits.h>
#include <unistd.h>

std::string program_file_for_shell()
{
    char path[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
    std::string file;
    if (len > 0) {
        path[len] = '\0';
        if (access(path, R_OK) == 0)
            file = path;
    }
    if (file.empty())
        file = "/proc/" + std::to_string(getpid()) + "/exe";
    // Single quotes keep every character as it is, but a quote itself.
    std::string quoted = "'";
    for (char c : file)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}
