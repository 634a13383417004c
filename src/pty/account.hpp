// The account wharf runs as: its name, home and login shell (the password database; a
// HOME wharf was started with wins for the home).
#pragma once

#include "core/environment.hpp"

namespace wharf::pty {

// Falls back to $HOME / /bin/sh only when the database has no usable entry.
core::Account current_account();

}  // namespace wharf::pty
