#include "core/exit_status.hpp"

#include <cstring>

namespace wharf::core {

std::string signal_name(int signal) {
  if (const char* abbrev = sigabbrev_np(signal)) return std::string("SIG") + abbrev;
  return "SIG" + std::to_string(signal);
}

}  // namespace wharf::core
