// read_screen: the screen of a session as text (what a person sees now), with recent
// scrollback on request; or, given `since` (the `seq` an earlier read answered), only the
// rows that changed, so a program polling a screen reads little.
//
// A screen is mostly blank below its last line of content, and those rows say nothing:
// `lines` stops at the last row with text, `shown_rows` says how many rows that is, and
// `rows` how many the screen has (rows past shown_rows are blank). Answers to `since` are
// exact: a row that changed to blank is listed, with text "".
#include <boost/json.hpp>

#include "ops/arguments.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

json::object screen_fields(const core::ScreenText& text) {
  return json::object{
      {"cursor",
       json::object{
           {"row", text.cursor.row}, {"col", text.cursor.col}, {"visible", text.cursor.visible}}},
      {"cols", text.size.cols},
      {"rows", text.size.rows},
      {"title", text.title},
      {"alternate_screen", text.alternate_screen},
  };
}

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "read_screen");
  auto scrollback = a.integer("scrollback");
  auto since = a.integer("since");
  auto session = a.session(context, core::Access::kRead);
  if (!a) co_return a.error();
  const core::Screen& screen = session->screen();
  core::ScreenText text = screen.text(static_cast<std::size_t>(scrollback.value_or(0)));
  json::object answer = screen_fields(text);
  answer["session"] = session->id();
  if (since) {
    core::ScreenChanges changes = screen.changes_since(static_cast<std::uint64_t>(*since));
    json::array rows;
    for (const auto& [row, line] : changes.lines)
      rows.push_back(json::object{{"row", row}, {"text", line}});
    answer["seq"] = changes.seq;
    answer["full"] = changes.full;
    answer["scrolled"] = changes.scrolled;
    answer["changed"] = std::move(rows);
  } else {
    answer["seq"] = screen.change_seq();
    std::size_t shown = text.lines.size();
    while (shown > 0 && text.lines[shown - 1].empty()) --shown;
    answer["shown_rows"] = shown;
    answer["lines"] =
        json::array(text.lines.begin(), text.lines.begin() + static_cast<std::ptrdiff_t>(shown));
  }
  if (scrollback)
    answer["scrollback"] = json::array(text.scrollback.begin(), text.scrollback.end());
  co_return answer;
}

std::string render(const json::object& answer) {
  std::string text;
  if (const json::value* back = answer.if_contains("scrollback"))
    for (const json::value& line : back->get_array()) text += std::string(line.get_string()) + "\n";
  if (const json::value* lines = answer.if_contains("lines")) {
    for (const json::value& line : lines->get_array())
      text += std::string(line.get_string()) + "\n";
  } else {
    const json::object& a = answer;
    text += "seq " + std::to_string(a.at("seq").to_number<std::uint64_t>()) +
            (a.at("full").get_bool() ? ", whole screen" : "") + ", scrolled " +
            std::to_string(a.at("scrolled").to_number<std::uint64_t>()) + "\n";
    for (const json::value& row : a.at("changed").get_array())
      text += std::to_string(row.at("row").to_number<std::int64_t>()) + ": " +
              std::string(row.at("text").get_string()) + "\n";
  }
  return text;
}

}  // namespace

const Operation kReadScreen{
    .name = "read_screen",
    .title = "Read a session's screen",
    .description =
        "Reads what a session's terminal shows now, as text lines (trailing blanks trimmed, "
        "and blank rows after the last line of text left out: shown_rows lines of the "
        "screen's rows), with the cursor, size (cols, rows), title and whether a "
        "full-screen program's alternate screen is on. scrollback adds up to that many earlier "
        "lines. The answer's seq can be passed "
        "back as since: then only rows that changed come back (changed: [{row, text}]), after "
        "shifting your copy up by `scrolled` rows; full=true means every row is there.",
    .input_schema = R"({"type":"object","properties":{
      "session":{"type":"integer","minimum":1,"description":"The session's id."},
      "scrollback":{"type":"integer","minimum":0,"maximum":2000,"description":"Earlier lines to include."},
      "since":{"type":"integer","minimum":0,"description":"seq from an earlier read: answer only what changed."}},
      "required":["session"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "session":{"type":"integer"},
      "cols":{"type":"integer","description":"Columns of the screen."},
      "rows":{"type":"integer","description":"Rows of the screen."},
      "shown_rows":{"type":"integer","description":"Rows in lines: those after it are blank."},
      "lines":{"type":"array","items":{"type":"string"},"description":"The screen's rows from the top, to the last that has text."},
      "cursor":{"type":"object","properties":{"row":{"type":"integer"},"col":{"type":"integer"},"visible":{"type":"boolean"}},"required":["row","col","visible"]},
      "title":{"type":"string"},
      "alternate_screen":{"type":"boolean","description":"A full-screen program's screen is shown."},
      "seq":{"type":"integer","description":"Pass back as since to read only what changed."},
      "full":{"type":"boolean","description":"With since: every row is in changed."},
      "scrolled":{"type":"integer","description":"With since: rows the screen moved up first."},
      "changed":{"type":"array","items":{"type":"object","properties":{"row":{"type":"integer"},"text":{"type":"string"}},"required":["row","text"]}},
      "scrollback":{"type":"array","items":{"type":"string"}}},
      "required":["session","cols","rows","cursor","title","alternate_screen","seq"]})",
    .read_only = true,
    .idempotent = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
