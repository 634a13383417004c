// Feeds arbitrary bytes to what `wharf status-line` reads on stdin (an agent's status
// line JSON, core::parse_claude_status) and to the status message built from it.
// Invariants: any JSON value is read without failing; every text of the report is
// printable ASCII within kMaxReportText; every number is finite and not negative; the
// line shown to the agent and the `status` message are valid UTF-8 without a control
// character.
#include <boost/json.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/session_status.hpp"
#include "core/utf8.hpp"

namespace {

using namespace wharf::core;

void check_clean(std::string_view text) {
  Utf8Decoder decoder;
  for (char c : text) {
    auto step = decoder.feed(static_cast<unsigned char>(c));
    if (step == Utf8Decoder::Step::kInvalid || step == Utf8Decoder::Step::kRetry) std::abort();
    if (step != Utf8Decoder::Step::kChar) continue;
    std::uint32_t cp = decoder.code_point();
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) std::abort();
  }
  if (decoder.pending()) std::abort();
}

void check_ascii(const std::string& text) {
  if (text.size() > kMaxReportText) std::abort();
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) std::abort();
}

template <class T>
void check_number(const std::optional<T>& n) {
  if (n && (!std::isfinite(static_cast<double>(*n)) || *n < 0)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(input, ec);
  if (ec) return 0;
  std::optional<AgentReport> report = parse_claude_status(value);
  if (!report) {
    if (value.is_object()) std::abort();
    return 0;
  }
  for (const std::string* text : {&report->model, &report->effort, &report->version})
    check_ascii(*text);
  check_number(report->context_percent);
  check_number(report->context_tokens);
  check_number(report->context_window);
  check_number(report->cost_usd);
  check_number(report->five_hour_percent);
  check_number(report->five_hour_resets_at);
  check_number(report->seven_day_percent);
  check_number(report->seven_day_resets_at);
  check_clean(report_line(*report));
  StatusTracker tracker;
  tracker.on_report(*report);
  check_clean(status_message(7, tracker.status(), ""));
  return 0;
}
