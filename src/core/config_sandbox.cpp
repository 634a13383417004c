// config.toml's [sandbox] section (see config_reading.hpp): what applies to every
// sandboxed session rather than to one entry. For now, how long a pending decision waits.
#include "core/config_reading.hpp"
#include "core/decision_book.hpp"

namespace wharf::core::config_reading {

void sandbox_section(const toml::node& node, SandboxConfig& out) {
  each_key(table_of(node, "[sandbox]"), "[sandbox]",
           {
               {"roots", [&](const toml::node& n) { out.roots = strings_of(n, "roots"); }},
               {"decision_expiry_seconds",
                [&](const toml::node& n) {
                  out.decision_expiry_seconds = static_cast<unsigned>(
                      integer_of(n, "decision_expiry_seconds", kMinDecisionExpiry.count(),
                                 kMaxDecisionExpiry.count()));
                }},
           });
}

}  // namespace wharf::core::config_reading
