// Result<T>: a value, or an Error whose message says what failed and why, in words a
// user can act on. Expected failures (a missing shell, a port in use) travel as Results;
// broken invariants abort instead.
#pragma once

#include <cstdlib>
#include <string>
#include <utility>
#include <variant>

namespace wharf::core {

struct Error {
  Error(std::string message_text, std::string code_text = {})  // NOLINT: implicit by design
      : message(std::move(message_text)), code(std::move(code_text)) {}
  std::string message;
  std::string code;  // a stable machine-readable reason where a protocol needs one
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  T& value() {
    if (!ok()) std::abort();  // reading the value of a failure is a programming error
    return std::get<T>(state_);
  }
  const T& value() const {
    if (!ok()) std::abort();
    return std::get<T>(state_);
  }
  const Error& error() const {
    if (ok()) std::abort();
    return std::get<Error>(state_);
  }

 private:
  std::variant<T, Error> state_;
};

// For operations that produce nothing but can fail.
using Status = Result<std::monostate>;
inline Status ok_status() {
  return std::monostate{};
}

}  // namespace wharf::core
