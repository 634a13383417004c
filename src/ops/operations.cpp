#include <spdlog/spdlog.h>

#include <array>
#include <boost/json/serialize.hpp>
#include <exception>

#include "ops/operation.hpp"

namespace wharf::ops {

std::span<const Operation> all_operations() {
  static const std::array kOperations{kListSessions, kNewSession, kEndSession,
                                      kReadScreen,   kSendKeys,   kSendText,
                                      kRunCommand,   kWaitFor,    kNotify};
  return kOperations;
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
