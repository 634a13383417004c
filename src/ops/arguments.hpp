// Reading an operation's arguments (a JSON object) with errors a person or a model can
// act on: "'timeout_ms' must be an integer from 1 to 3600000". The reader keeps the
// first error and every later read returns a harmless default, so an operation reads
// all it needs and checks once:
//
//   Arguments a(args, {"session", "keys"});
//   auto keys = a.texts("keys", 64, 32, true);
//   auto session = a.session(context, core::Access::kDrive);
//   if (!a) co_return a.error();
//
// Errors have code "bad_argument", except the session's own refusals (no_session,
// not_permitted, ...). Numbers may arrive as strings of digits (models often send them so).
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <initializer_list>
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
  // Refuses (as the first error) any argument not in `known`.
  Arguments(const boost::json::object& args, std::initializer_list<std::string_view> known);

  explicit operator bool() const { return !error_; }
  const core::Error& error() const { return *error_; }
  void fail(core::Error error);

  bool has(std::string_view name) const;
  std::optional<std::string> text(std::string_view name, std::size_t max_bytes,
                                  bool required = false);
  std::optional<std::int64_t> integer(std::string_view name, std::int64_t min, std::int64_t max,
                                      bool required = false);
  std::optional<bool> flag(std::string_view name);
  std::vector<std::string> texts(std::string_view name, std::size_t max_items,
                                 std::size_t max_bytes, bool required = false);

  // The session named by "session" (an id), live, that the caller may use for `access`.
  std::shared_ptr<app::Session> session(Context& context, core::Access access);
  // The same for an id the caller gave some other way (the shared shell, a default).
  std::shared_ptr<app::Session> check_access(Context& context, core::SessionId id,
                                             core::Access access);

 private:
  const boost::json::value* find(std::string_view name, bool required);

  const boost::json::object& args_;
  std::optional<core::Error> error_;
};

// {"ok": false}-style answers share these words.
core::Error bad_argument(std::string message);

}  // namespace wharf::ops
