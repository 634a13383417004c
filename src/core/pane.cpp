#include "core/pane.hpp"

#include <boost/json.hpp>
#include <cctype>
#include <vector>

#include "core/shown_text.hpp"
#include "core/utf8.hpp"

namespace wharf::core {
namespace json = boost::json;
namespace {

// Decodes `text` into code points; nullopt-like false when any byte is not UTF-8.
bool decode_utf8(std::string_view text, std::vector<std::uint32_t>& out) {
  Utf8Decoder decoder;
  for (std::size_t i = 0; i < text.size(); ++i) {
    switch (decoder.feed(static_cast<unsigned char>(text[i]))) {
      case Utf8Decoder::Step::kMore:
        break;
      case Utf8Decoder::Step::kChar:
        out.push_back(decoder.code_point());
        break;
      case Utf8Decoder::Step::kInvalid:
      case Utf8Decoder::Step::kRetry:
        return false;
    }
  }
  return !decoder.pending();
}

bool is_utf8(std::string_view text) {
  std::vector<std::uint32_t> ignored;
  return decode_utf8(text, ignored);
}

// A field name: a form control's name, so printable and short; no control characters.
bool name_is_clean(std::string_view name) {
  std::vector<std::uint32_t> cps;
  if (!decode_utf8(name, cps)) return false;
  for (std::uint32_t cp : cps)
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return false;
  return true;
}

Error feedback_error(std::string message) {
  return Error{std::move(message), "bad_feedback"};
}

// The feedback script. It runs first in the page's own document, in its sandbox: it can
// do nothing the page itself could not, and the page may remove it (then its forms
// simply send nothing). Submissions of forms marked data-feedback become one message to
// the page around the frame; every other form's submission is left to the policy, which
// refuses it (form-action 'none').
constexpr std::string_view kFeedbackScript = R"(<script>
(function () {
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-feedback')) return;
    event.preventDefault();
    var data;
    try { data = new FormData(form, event.submitter || undefined); } catch (e) { data = new FormData(form); }
    var fields = {};
    data.forEach(function (value, name) {
      if (typeof value !== 'string') return;
      if (Object.prototype.hasOwnProperty.call(fields, name)) {
        if (!Array.isArray(fields[name])) fields[name] = [fields[name]];
        fields[name].push(value);
      } else {
        fields[name] = value;
      }
    });
    parent.postMessage({ type: 'wharf-feedback', fields: fields }, '*');
  }, true);
})();
</script>
)";

}  // namespace

Status check_page(std::string_view html, std::size_t max_bytes) {
  if (html.empty()) return Error{"the page is empty: publish some HTML", "bad_page"};
  if (html.size() > max_bytes)
    return Error{"the page is " + std::to_string(html.size()) +
                     " bytes; a pane page may be at most " + std::to_string(max_bytes) +
                     " bytes ([pane] max_bytes)",
                 "too_large"};
  return ok_status();
}

Result<std::string> clean_title(std::string_view title) {
  std::vector<std::uint32_t> cps;
  if (!decode_utf8(title, cps)) return Error{"the title is not UTF-8 text", "bad_title"};
  std::string out;
  bool space = false;
  for (std::uint32_t cp : cps) {
    bool blank =
        cp < 0x20 || cp == ' ' || (cp >= 0x7f && cp < 0xa0) || cp == 0x2028 || cp == 0x2029;
    if (blank) {
      space = !out.empty();
      continue;
    }
    std::string ch;
    append_utf8(ch, cp);
    if (out.size() + (space ? 1 : 0) + ch.size() > kMaxPaneTitleBytes) break;
    if (space) out += ' ';
    space = false;
    out += ch;
  }
  return out;
}

std::string pane_document(std::string_view html) {
  // After a leading doctype, if there is one: a script before it would put the page in
  // quirks mode. Whitespace and a byte order mark may come first.
  std::size_t start = 0;
  if (html.starts_with("\xEF\xBB\xBF")) start = 3;
  while (start < html.size() && std::isspace(static_cast<unsigned char>(html[start]))) ++start;
  std::size_t insert_at = 0;
  constexpr std::string_view kDoctype = "<!doctype";
  if (html.size() - start >= kDoctype.size()) {
    bool is_doctype = true;
    for (std::size_t i = 0; i < kDoctype.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(html[start + i])) != kDoctype[i])
        is_doctype = false;
    if (is_doctype) {
      std::size_t end = html.find('>', start);
      if (end != std::string_view::npos) insert_at = end + 1;
    }
  }
  std::string out;
  out.reserve(html.size() + kFeedbackScript.size() + 1);
  out.append(html.substr(0, insert_at));
  if (insert_at != 0) out += '\n';
  out.append(kFeedbackScript);
  out.append(html.substr(insert_at));
  return out;
}

Result<json::object> check_feedback(std::string_view text, const FeedbackLimits& limits) {
  if (text.size() > limits.max_total_bytes * 2 + 4096)
    return feedback_error("the submission is too large");
  boost::system::error_code ec;
  json::value value = json::parse(text, ec);
  if (ec || !value.is_object())
    return feedback_error("the fields must be an object of names and text values");
  const json::object& fields = value.get_object();
  std::size_t count = 0;
  std::size_t total = 0;
  auto check_value = [&](std::string_view name, const json::value& v) -> Status {
    if (!v.is_string()) return feedback_error("field '" + shown_text(name) + "' must be text");
    const json::string& s = v.get_string();
    if (s.size() > limits.max_value_bytes)
      return feedback_error("field '" + shown_text(name) + "' is " + std::to_string(s.size()) +
                            " bytes; a value may be at most " +
                            std::to_string(limits.max_value_bytes));
    if (!is_utf8(std::string_view(s.data(), s.size())))
      return feedback_error("field '" + shown_text(name) + "' is not UTF-8 text");
    ++count;
    total += s.size();
    return ok_status();
  };
  for (const auto& field : fields) {
    std::string_view name(field.key().data(), field.key().size());
    if (name.empty()) return feedback_error("a field has no name");
    if (name.size() > limits.max_name_bytes)
      return feedback_error("a field name is " + std::to_string(name.size()) +
                            " bytes; a name may be at most " +
                            std::to_string(limits.max_name_bytes));
    if (!name_is_clean(name))
      return feedback_error("a field name holds control characters or is not UTF-8");
    total += name.size();
    if (field.value().is_array()) {
      for (const json::value& item : field.value().get_array()) {
        if (auto checked = check_value(name, item); !checked) return checked.error();
        if (count > limits.max_fields) break;
      }
    } else if (auto checked = check_value(name, field.value()); !checked) {
      return checked.error();
    }
    if (count > limits.max_fields)
      return feedback_error("the form has more than " + std::to_string(limits.max_fields) +
                            " values");
  }
  if (total > limits.max_total_bytes)
    return feedback_error("the form's names and values come to " + std::to_string(total) +
                          " bytes; at most " + std::to_string(limits.max_total_bytes) +
                          " are accepted");
  return fields;
}

Status admit_feedback(std::size_t count, std::int64_t last_ms, std::int64_t now_ms,
                      const FeedbackLimits& limits) {
  if (count >= limits.max_per_page)
    return Error{"this page has already been submitted " + std::to_string(count) +
                     " times, the most one page may be; publish it again to ask again",
                 "too_many_feedback"};
  if (last_ms != 0 && now_ms - last_ms < limits.min_interval_ms)
    return Error{"a page may be submitted once a second; try again in a moment", "too_soon"};
  return ok_status();
}

std::string feedback_line(std::string_view title, std::string_view path) {
  std::string line = "[wharf pane: form";
  if (!title.empty()) {
    line += " \"";
    line += title;
    line += "\"";
  }
  line += " submitted; read ";
  line += path;
  line += "]";
  return line;
}

std::string pane_message(std::uint64_t session, const PaneSummary* page) {
  json::object message{{"type", "pane"}, {"session", session}};
  if (page == nullptr) {
    message["page"] = nullptr;
  } else {
    message["page"] = json::object{{"token", page->token},
                                   {"title", page->title},
                                   {"bytes", page->bytes},
                                   {"published", page->published_ms},
                                   {"url", pane_url(session, page->token)}};
  }
  return json::serialize(message);
}

std::string pane_feedback_message(std::uint64_t session, std::string_view path, bool typed) {
  return json::serialize(json::object{
      {"type", "pane_feedback"}, {"session", session}, {"path", path}, {"typed", typed}});
}

std::string pane_url(std::uint64_t session, std::string_view token) {
  return "/pane/" + std::to_string(session) + "/" + std::string(token);
}

}  // namespace wharf::core
