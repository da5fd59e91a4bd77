// The file of the running program, for the tools check mode asks about it
// (addr2line for source lines, readelf for shared arrays' names).
#pragma once

#include <string>

// The program's path, quoted for a shell command line.
std::string program_file_for_shell();
