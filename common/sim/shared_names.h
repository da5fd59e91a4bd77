// Names for shared-memory slots in check mode's messages: "As[1][5]
// (declared at line 28)" rather than a bare offset, from the program's own
// debug information.
#pragma once

#include <string>

namespace sim {

// The __shared__ variable and element at byte_offset of the program's
// thread-local block (where a simulator build keeps __shared__ arrays), as
// "As[1][5] (declared at line 28)"; "" when the debug information does not
// say (no readelf, a build without -g).  Reads the debug information once,
// on first use.
std::string shared_slot_name(long byte_offset);

}  // namespace sim
