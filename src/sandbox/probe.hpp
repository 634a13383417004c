// Looks at this machine for the sandbox: where bubblewrap is, whether user namespaces let
// it run, and the HostLayout a plan needs (which system directories exist, the merged-/usr
// links, the secrets under /etc to cover). The only part of sandbox/ that touches the
// filesystem; what it finds is plain data for plan.cpp.
#pragma once

#include <string>

#include "core/result.hpp"
#include "sandbox/plan.hpp"

namespace wharf::sandbox {

// The bwrap program, or an error saying what is missing and how to get it: bubblewrap not
// installed, or user namespaces switched off (and the sysctl that switches them on).
core::Result<std::string> find_bwrap();

HostLayout probe_layout(const std::string& home, const std::string& state_dir);

}  // namespace wharf::sandbox
