#include "cli/history_audit.hpp"

#include <boost/json.hpp>

namespace wharf::cli {

core::Status add_audit(boost::json::object& session, const store::MetadataStore& store,
                       std::int64_t run_id, std::uint64_t session_id) {
  auto audit = store.session_audit(run_id, session_id);
  if (!audit) return audit.error();
  const store::SessionAudit& a = audit.value();
  boost::json::value capabilities = nullptr;
  if (!a.capabilities_json.empty()) {
    boost::system::error_code ec;
    boost::json::value parsed = boost::json::parse(a.capabilities_json, ec);
    if (!ec && parsed.is_object()) capabilities = std::move(parsed);
  }
  boost::json::array decisions;
  for (const store::DecisionRecord& d : a.decisions) {
    boost::json::array argv;
    for (const std::string& word : d.argv) argv.emplace_back(word);
    boost::json::value answered_at = nullptr;
    if (d.answered_at_ms) answered_at = *d.answered_at_ms;
    decisions.emplace_back(boost::json::object{{"id", d.decision_id},
                                               {"opened_at", d.opened_at_ms},
                                               {"what", d.what},
                                               {"argv", std::move(argv)},
                                               {"cwd", d.cwd},
                                               {"source", d.source},
                                               {"outcome", d.outcome},
                                               {"answered_by", d.answered_by},
                                               {"answered_at", answered_at},
                                               {"note", d.note}});
  }
  boost::json::array inputs;
  for (const store::InputAttributionRow& row : a.inputs)
    inputs.emplace_back(boost::json::object{
        {"at", row.at_ms}, {"client", row.client_kind}, {"label", row.client_label}});
  session["capabilities"] = std::move(capabilities);
  session["decisions"] = std::move(decisions);
  session["egress_refusals"] = a.egress_refusals;
  // The latest refusals themselves (where it tried to go, never what it carried).
  auto refused = store.egress_refusals(run_id, session_id, 50);
  if (!refused) return refused.error();
  boost::json::array refusals;
  for (const store::EgressRefusal& r : refused.value())
    refusals.emplace_back(boost::json::object{{"at", r.at_ms}, {"host", r.host}, {"port", r.port}});
  session["egress_refused"] = std::move(refusals);
  session["inputs"] = std::move(inputs);
  return core::ok_status();
}

}  // namespace wharf::cli
