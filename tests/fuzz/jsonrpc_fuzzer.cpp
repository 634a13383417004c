// Feeds arbitrary bytes to MCP's protocol logic, split on '\n' into messages as the stdio
// transport splits its input: once to a fresh connection and once to a connection
// initialized at the version the first byte picks. Every tool call handed out is
// finished with a result made of the same bytes (text, and a structured field). Each
// reply must be one line of valid UTF-8 JSON-RPC carrying a result or an error; a
// notification or a client's response must get none; a call must name a known tool.
#include <boost/json.hpp>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mcp/connection.hpp"

namespace {

namespace json = boost::json;
using namespace wharf::mcp;

const std::shared_ptr<const Server>& fuzz_server() {
  static const std::shared_ptr<const Server> server = [] {
    auto created = Server::create(
        {ToolSpec{.name = "read_screen", .output_schema = json::object{{"type", "object"}}},
         ToolSpec{.name = "run_command"}},
        ServerInfo{.version = "fuzz", .instructions = "fuzz"});
    if (!created) std::abort();
    return created.value();
  }();
  return server;
}

void check_line(const std::string& line) {
  if (line.find('\n') != std::string::npos || line.size() > kMaxReplyBytes) std::abort();
  boost::system::error_code ec;
  json::value v = json::parse(line, ec);  // also refuses invalid UTF-8
  if (ec || !v.is_object()) std::abort();
  const json::object& o = v.get_object();
  const json::value* jsonrpc = o.if_contains("jsonrpc");
  if (jsonrpc == nullptr || *jsonrpc != "2.0" || !o.contains("id")) std::abort();
  if (o.contains("result") == o.contains("error")) std::abort();
}

void feed(Connection& connection, std::string_view text) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    Step step = connection.handle(text.substr(start, end - start));
    if (step.reply) check_line(*step.reply);
    if ((step.kind == MessageKind::kNotification || step.kind == MessageKind::kResponse) &&
        (step.reply || step.call))
      std::abort();
    if (step.call) {
      if (step.reply || fuzz_server()->find(step.call->name) == nullptr) std::abort();
      std::string bytes(text);
      check_line(connection.finish(*step.call,
                                   ToolResult{.structured = {{"bytes", bytes}}, .text = bytes}));
      check_line(connection.finish(*step.call, ToolResult{.is_error = true}));
    }
    start = end + 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);

  Connection fresh(fuzz_server());
  feed(fresh, text);

  Connection initialized(fuzz_server());
  std::string_view version = kSupportedVersions[data[0] % kSupportedVersions.size()];
  Step step = initialized.handle(R"({"jsonrpc":"2.0","id":0,"method":"initialize",)"
                                 R"("params":{"protocolVersion":")" +
                                 std::string(version) + "\"}}");
  if (!step.reply || initialized.protocol_version() != version) std::abort();
  feed(initialized, text);
  return 0;
}
