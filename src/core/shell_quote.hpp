// Quoting for the shells wharf's sessions run (bash and zsh, both POSIX in this): a list
// of arguments becomes one command line that the shell splits back into exactly those
// arguments, so `wharf run -- sh -c 'exit 7'` runs sh with the two arguments -c and
// `exit 7`, not a line of three words. A word made only of characters no shell treats
// specially is left as it is (the person watching reads `make test`, not `'make' 'test'`);
// any other word goes in single quotes, inside which nothing is special, and a single
// quote in it is written '\'' (close, an escaped quote, reopen).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace wharf::core {

// One argument as the shell must read it; the empty argument is ''.
std::string shell_quote(std::string_view word);

// The arguments joined by single spaces, each quoted.
std::string shell_command_line(std::span<const std::string> words);

}  // namespace wharf::core
