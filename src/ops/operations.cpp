#include <spdlog/spdlog.h>

#include <array>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cstdlib>
#include <exception>
#include <vector>

#include "ops/operation.hpp"

namespace wharf::ops {

std::span<const Operation> all_operations() {
  static const std::array kOperations{kListEntries,  kListSessions,  kNewSession,    kEndSession,
                                      kReadScreen,   kSendKeys,      kSendText,      kRunCommand,
                                      kWaitFor,      kNotify,        kRenameSession, kMoveSession,
                                      kPaneShow,     kPaneClear,     kPairDevice,    kListDevices,
                                      kRevokeDevice, kListDecisions, kAnswerDecision};
  return kOperations;
}

namespace {

struct Schemas {
  boost::json::object input;
  boost::json::object output;
};

boost::json::object parse_schema(std::string_view text) {
  if (text.empty()) return boost::json::object{{"type", "object"}};
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(text, ec);
  if (ec || !value.is_object()) {
    spdlog::critical("an operation's schema is not a JSON object: {}", text.substr(0, 80));
    std::abort();  // wharf's own source text; every test that lists a tool finds this
  }
  return std::move(value.get_object());
}

const Schemas& schemas_of(const Operation& operation) {
  static const std::vector<Schemas> kParsed = [] {
    std::vector<Schemas> parsed;
    for (const Operation& o : all_operations())
      parsed.push_back(Schemas{parse_schema(o.input_schema), parse_schema(o.output_schema)});
    return parsed;
  }();
  std::span<const Operation> all = all_operations();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].name == operation.name) return kParsed[i];
  static const Schemas kNone{parse_schema(""), parse_schema("")};
  return kNone;
}

}  // namespace

const boost::json::object& input_schema(const Operation& operation) {
  return schemas_of(operation).input;
}

const boost::json::object& output_schema(const Operation& operation) {
  return schemas_of(operation).output;
}

const Operation* find_operation(std::string_view name) {
  for (const Operation& operation : all_operations())
    if (operation.name == name) return &operation;
  return nullptr;
}

asio::awaitable<Answer> run_operation(std::string_view name, Context& context,
                                      const boost::json::object& args) {
  const Operation* operation = find_operation(name);
  if (operation == nullptr) {
    std::string known;
    for (const Operation& o : all_operations())
      known += (known.empty() ? "" : ", ") + std::string(o.name);
    co_return core::Error{
        "no operation '" + std::string(name.substr(0, 40)) + "' (known: " + known + ")",
        "unknown_operation"};
  }
  try {
    co_return co_await operation->run(context, args);
  } catch (const std::exception& e) {
    // A broken request must never take the daemon down; it gets an answer saying so.
    spdlog::error("operation {} failed: {}", operation->name, e.what());
    co_return core::Error{"internal error in " + std::string(operation->name) + ": " + e.what(),
                          "internal"};
  }
}

std::string answer_text(const Operation& operation, const boost::json::object& answer) {
  if (operation.render_text != nullptr) return operation.render_text(answer);
  return boost::json::serialize(answer);
}

}  // namespace wharf::ops
