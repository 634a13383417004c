// Reading an operation's arguments (a JSON object) with errors a person or a model can
// act on: "'timeout_ms' must be an integer from 1 to 3600000". What is allowed comes from
// one place, the operation's input schema (ops/operation.hpp): the names (any other is
// refused, and the message lists only the names the schema offers), `required`, and for
// each property its type, minimum/maximum, maxLength (counted in bytes),
// minItems/maxItems and enum. The constructor checks all of it; the reader keeps the
// first error and every later read returns a harmless default, so an operation reads
// what it needs and checks once:
//
//   Arguments a(args, "send_keys");
//   auto keys = a.texts("keys");
//   auto session = a.session(context, core::Access::kDrive);
//   if (!a) co_return a.error();
//
// Errors have code "bad_argument", except the session's own refusals (no_session,
// not_permitted, ...). Integers may arrive as strings of digits (models often send them
// so, and /api/v1 query parameters are text).
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ownership.hpp"
#include "core/result.hpp"
#include "ops/operation.hpp"

namespace wharf::ops {

class Arguments {
 public:
  // Checks `args` against the input schema of the operation named `operation`.
  Arguments(const boost::json::object& args, std::string_view operation);
  // The same against a schema given directly (for tests of the checks themselves).
  Arguments(const boost::json::object& args, const boost::json::object& schema);

  explicit operator bool() const { return !error_; }
  const core::Error& error() const { return *error_; }
  void fail(core::Error error);

  bool has(std::string_view name) const;
  // The values, already checked; nullopt (or empty) when absent or after an error.
  std::optional<std::string> text(std::string_view name) const;
  std::optional<std::int64_t> integer(std::string_view name) const;
  std::optional<bool> flag(std::string_view name) const;
  std::vector<std::string> texts(std::string_view name) const;

  // The session named by "session" (an id), live, that the caller may use for `access`.
  std::shared_ptr<app::Session> session(Context& context, core::Access access);
  // The same for an id the caller gave some other way (the shared shell, a default).
  std::shared_ptr<app::Session> check_access(Context& context, core::SessionId id,
                                             core::Access access);

 private:
  void check(const boost::json::object& schema);
  const boost::json::value* value(std::string_view name) const;

  const boost::json::object& args_;
  std::optional<core::Error> error_;
};

// The one message for a bad argument.
core::Error bad_argument(std::string message);

// An integer argument: a JSON integer, an integral number, or a string of digits.
std::optional<std::int64_t> integer_value(const boost::json::value& value);

}  // namespace wharf::ops
