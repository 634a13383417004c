// How a session's program ended: an exit code, or the signal that killed it.
#pragma once

#include <optional>
#include <string>

namespace wharf::core {

struct ExitStatus {
  std::optional<int> code;
  std::optional<int> signal;
  friend bool operator==(const ExitStatus&, const ExitStatus&) = default;
};

// "SIGKILL" style name, or "SIG<n>" for a number the C library does not know.
std::string signal_name(int signal);

}  // namespace wharf::core
