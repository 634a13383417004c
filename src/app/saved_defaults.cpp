#include "app/saved_defaults.hpp"

#include <boost/json.hpp>
#include <fstream>
#include <sstream>
#include <system_error>

#include "app/key_file.hpp"

namespace wharf::app {
namespace json = boost::json;

namespace {
constexpr std::size_t kMaxFileBytes = 64 * 1024;  // the file holds two short strings
}

core::Result<SavedDefaults> load_defaults(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return SavedDefaults{};
  std::ifstream in(file, std::ios::binary);
  if (!in) return core::Error{"cannot read " + file.string()};
  std::ostringstream text;
  text << in.rdbuf();
  std::string content = text.str();
  if (content.size() > kMaxFileBytes) return core::Error{file.string() + " is too large"};
  boost::system::error_code parse_error;
  json::value value = json::parse(content, parse_error);
  if (parse_error || !value.is_object())
    return core::Error{file.string() + " is not a JSON object"};
  SavedDefaults saved;
  const json::object& obj = value.get_object();
  if (const json::value* entry = obj.if_contains("entry"); entry != nullptr && entry->is_string())
    saved.entry = std::string(entry->get_string());
  if (const json::value* cwd = obj.if_contains("cwd"); cwd != nullptr && cwd->is_string())
    saved.cwd = std::string(cwd->get_string());
  return saved;
}

core::Status save_defaults(const std::filesystem::path& file, const SavedDefaults& defaults) {
  json::object obj;
  if (defaults.entry) obj["entry"] = *defaults.entry;
  if (defaults.cwd) obj["cwd"] = *defaults.cwd;
  return write_private_file(file, json::serialize(obj) + "\n");
}

}  // namespace wharf::app
