#include "core/caller_labels.hpp"

#include <algorithm>

namespace wharf::core {
namespace {

constexpr std::string_view kMcpPrefix = "mcp:";

bool label_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '@' || c == '/';
}

// A name fit for a label: printable, no blanks, bounded.
std::string clean(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (out.size() >= kMaxClientLabelBytes) break;
    out += label_char(c) ? c : '_';
  }
  return out;
}

bool is_mcp(const Caller& caller) {
  return caller.via == "mcp" || caller.via.starts_with(kMcpPrefix);
}

}  // namespace

std::string answerer_label(const Caller& caller, std::string_view device_name) {
  if (is_mcp(caller)) return caller.via;
  std::string device = device_name.empty() ? std::string() : "device:" + clean(device_name);
  switch (caller.kind) {
    case Caller::Kind::kKeyHolder:
      if (!device.empty()) return device;
      return caller.via == "window" ? "key" : "rest";
    case Caller::Kind::kLocalUser:
      return "cli";
    case Caller::Kind::kSession:
      return creator_label(caller);
  }
  return "unknown";
}

InputClient input_client(const Caller& caller, std::string_view device_name) {
  if (is_mcp(caller)) {
    std::string_view via = caller.via;
    return {"mcp", via.starts_with(kMcpPrefix) ? std::string(via.substr(kMcpPrefix.size())) : ""};
  }
  switch (caller.kind) {
    case Caller::Kind::kKeyHolder:
      return {caller.via == "window" ? "window" : "rest", clean(device_name)};
    case Caller::Kind::kLocalUser:
      return {"cli", ""};
    case Caller::Kind::kSession:
      return {"cli", creator_label(caller)};
  }
  return {"cli", ""};
}

std::string mcp_via(std::string_view client_info) {
  std::string_view name = client_info.substr(0, client_info.find(' '));
  std::string cleaned = clean(name);
  bool usable = std::any_of(cleaned.begin(), cleaned.end(), [](char c) { return c != '_'; });
  return usable ? std::string(kMcpPrefix) + cleaned : "mcp";
}

bool valid_via(std::string_view via) {
  if (via == "mcp") return true;
  if (!via.starts_with(kMcpPrefix)) return false;
  std::string_view name = via.substr(kMcpPrefix.size());
  return !name.empty() && name.size() <= kMaxClientLabelBytes &&
         std::all_of(name.begin(), name.end(), label_char);
}

}  // namespace wharf::core
