// The sandbox keys every catalog entry may carry ([agents.NAME], [actions.NAME],
// [shells.NAME]): `sandbox`, `network`, `allow` and the `filesystem` table with
// `writable` and `readable`. Only the form is checked here; what the paths and hosts mean
// (inside the allowed roots, a valid host:port) is checked when the catalog's capabilities
// are worked out (sandbox/resolve.hpp), where HOME and the workspace are known.
#include "core/config_reading.hpp"

namespace wharf::core::config_reading {

void sandbox_keys(std::map<std::string_view, std::function<void(const toml::node&)>>& known,
                  SandboxDeclaration& out, const std::string& where) {
  known.emplace("sandbox", [&out](const toml::node& n) {
    out.enabled = bool_of(n, "sandbox");
    out.line = line_of(n);
  });
  known.emplace("network", [&out, where](const toml::node& n) {
    std::string value = string_of(n, "network");
    if (value != "none" && value != "allow" && value != "host" && value != "agent")
      refuse(n, where + ": 'network' is \"none\", \"allow\", \"host\" or \"agent\"");
    out.network = value;
    out.line = line_of(n);
  });
  known.emplace("allow", [&out](const toml::node& n) {
    out.allow = strings_of(n, "allow");
    out.line = line_of(n);
  });
  known.emplace("filesystem", [&out, where](const toml::node& n) {
    std::string inner = where + ".filesystem";
    each_key(
        table_of(n, inner), inner,
        {
            {"writable", [&out](const toml::node& v) { out.writable = strings_of(v, "writable"); }},
            {"readable", [&out](const toml::node& v) { out.readable = strings_of(v, "readable"); }},
        });
    out.line = line_of(n);
  });
}

}  // namespace wharf::core::config_reading
