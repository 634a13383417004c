// Test helper for the differential tests against xterm.js (tests/unit/xterm/
// engine_agreement.test.mjs): feeds a byte stream to the engine and prints its whole state
// as JSON, cell by cell, so that the test can compare it with @xterm/headless fed the same
// bytes.
//
//   wharf_screen_dump [options] COLS ROWS [STREAM]
//     STREAM                 a file, or - (the default) for stdin
//     --chunk N              feed the stream N bytes at a time (exercises splits)
//     --resize CxR[@OFFSET]  resize to C columns and R rows once OFFSET bytes are fed
//                            (default: after the whole stream); repeatable, in order
//     --scrollback N         also the last N scrollback rows (decoded back into cells)
//     --snapshot             also the snapshot (base64) and the state of a fresh engine of
//                            the same size fed that snapshot ("replica")
//
// Output: one JSON object
//   { cols, rows, screen: [row...], scrollback: [row...] (with --scrollback),
//     cursor: {x, y, visible, shape, blink}, alternate_screen, modes: {...}, title,
//     snapshot: "base64" and replica: {the same fields} (with --snapshot) }
// A row is {wrapped, cells: [cell...]}; a cell is {chars, width} plus, when not default,
// fg / bg / ul_color ({mode: "p16" | "p256" | "rgb", value}), flags (names), underline
// (style 1-5), link ({id, uri}). Strings are JSON with lone surrogates kept as \u escapes,
// so that they compare exactly with JavaScript strings.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/screen.hpp"
#include "core/utf8.hpp"

namespace {

using namespace wharf::core;

void json_string(std::string& out, std::u32string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  auto escape16 = [&](std::uint32_t unit) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
  };
  out += '"';
  for (char32_t ch : text) {
    auto cp = static_cast<std::uint32_t>(ch);
    if (cp == '"' || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp < 0x20 || cp == 0x7F || (cp >= 0xD800 && cp <= 0xDFFF)) {
      escape16(cp);
    } else if (cp > 0x10FFFF) {
      escape16(0xFFFD);
    } else {
      std::string utf8;
      append_utf8(utf8, cp);
      out += utf8;
    }
  }
  out += '"';
}

void json_string(std::string& out, std::string_view bytes) {
  // Byte strings here (titles, link ids and uris) are UTF-8: decode them.
  std::u32string decoded;
  Utf8Decoder decoder;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    switch (decoder.feed(static_cast<unsigned char>(bytes[i]))) {
      case Utf8Decoder::Step::kMore:
        break;
      case Utf8Decoder::Step::kChar:
        decoded.push_back(static_cast<char32_t>(decoder.code_point()));
        break;
      case Utf8Decoder::Step::kInvalid:
        decoded.push_back(U'\uFFFD');
        break;
      case Utf8Decoder::Step::kRetry:
        decoded.push_back(U'\uFFFD');
        --i;
        break;
    }
  }
  if (decoder.pending()) decoded.push_back(U'\uFFFD');
  json_string(out, std::u32string_view(decoded));
}

void json_bool(std::string& out, std::string_view key, bool value) {
  out += '"';
  out += key;
  out += "\":";
  out += value ? "true" : "false";
}

void json_int(std::string& out, std::string_view key, long long value) {
  out += '"';
  out += key;
  out += "\":";
  out += std::to_string(value);
}

void json_color(std::string& out, std::string_view key, std::uint32_t color) {
  std::uint32_t mode = color & kColorModeMask;
  if (mode == kColorDefault) return;
  out += ",\"";
  out += key;
  out += "\":{\"mode\":\"";
  out += mode == kColorPalette16 ? "p16" : mode == kColorPalette256 ? "p256" : "rgb";
  out += "\",\"value\":";
  out += std::to_string(color & kColorValueMask);
  out += '}';
}

void json_flags(std::string& out, std::uint16_t flags) {
  static constexpr std::pair<std::uint16_t, const char*> kNames[] = {
      {kBold, "bold"},     {kFaint, "faint"},       {kItalic, "italic"},
      {kBlink, "blink"},   {kInverse, "inverse"},   {kInvisible, "invisible"},
      {kStrike, "strike"}, {kOverline, "overline"}, {kProtected, "protected"},
  };
  bool any = false;
  for (const auto& [bit, name] : kNames) {
    if ((flags & bit) == 0) continue;
    out += any ? ",\"" : ",\"flags\":[\"";
    out += name;
    out += '"';
    any = true;
  }
  if (any) out += ']';
  if (int underline = underline_style(flags); underline != 0) {
    out += ',';
    json_int(out, "underline", underline);
  }
}

void json_row(std::string& out, const Screen& screen, const Line& line) {
  out += "{";
  json_bool(out, "wrapped", line.wrapped);
  out += ",\"cells\":[";
  std::u32string chars;
  for (std::size_t i = 0; i < line.cells.size(); ++i) {
    const Cell& c = line.cells[i];
    if (i > 0) out += ',';
    chars.clear();
    CellGrid::chars(line, c, chars);
    out += "{\"chars\":";
    json_string(out, std::u32string_view(chars));
    out += ',';
    json_int(out, "width", c.width());
    json_color(out, "fg", c.style.fg);
    json_color(out, "bg", c.style.bg);
    json_flags(out, c.style.flags);
    if (c.style.extra != 0) {
      StyleExtra extra = screen.extra(c.style);
      json_color(out, "ul_color", extra.underline_color);
      if (extra.link != 0) {
        const Hyperlink& link = screen.link(extra.link);
        out += ",\"link\":{\"id\":";
        json_string(out, std::string_view(link.id));
        out += ",\"uri\":";
        json_string(out, std::string_view(link.uri));
        out += '}';
      }
    }
    out += '}';
  }
  out += "]}";
}

const char* shape_name(CursorShape shape) {
  switch (shape) {
    case CursorShape::kBlock:
      return "block";
    case CursorShape::kUnderline:
      return "underline";
    case CursorShape::kBar:
      return "bar";
    case CursorShape::kDefault:
      break;
  }
  return "default";
}

// The state of `screen` as the members of a JSON object (without the braces).
void json_state(std::string& out, const Screen& screen, std::size_t scrollback) {
  const TerminalSize size = screen.size();
  json_int(out, "cols", size.cols);
  out += ',';
  json_int(out, "rows", size.rows);
  out += ",\"screen\":[";
  const CellGrid& grid = screen.grid();
  for (int row = 0; row < grid.rows(); ++row) {
    if (row > 0) out += ',';
    json_row(out, screen, grid.line(row));
  }
  out += ']';
  if (scrollback > 0) {
    out += ',';
    json_int(out, "scrollback_total", static_cast<long long>(screen.scrollback_lines()));
    out += ",\"scrollback\":[";
    bool first = true;
    for (const Line& line : screen.scrollback_cells(scrollback)) {
      if (!first) out += ',';
      first = false;
      json_row(out, screen, line);
    }
    out += ']';
  }
  CursorState cursor = screen.cursor();
  out += ",\"cursor\":{";
  json_int(out, "x", cursor.col);
  out += ',';
  json_int(out, "y", cursor.row);
  out += ',';
  json_bool(out, "visible", cursor.visible);
  out += ",\"shape\":\"";
  out += shape_name(screen.cursor_shape());
  out += "\",";
  json_bool(out, "blink", screen.cursor_blink());
  out += "},";
  json_bool(out, "alternate_screen", screen.alternate_screen());
  const InputModes& m = screen.modes();
  out += ",\"modes\":{";
  json_bool(out, "application_cursor", m.application_cursor);
  out += ',';
  json_bool(out, "application_keypad", m.application_keypad);
  out += ',';
  json_bool(out, "bracketed_paste", m.bracketed_paste);
  out += ',';
  json_bool(out, "focus", m.focus_reporting);
  out += ',';
  json_int(out, "mouse_tracking", m.mouse_tracking);
  out += ',';
  json_int(out, "mouse_encoding", m.mouse_encoding);
  out += ',';
  json_bool(out, "origin", m.origin);
  out += ',';
  json_bool(out, "autowrap", m.autowrap);
  out += ',';
  json_bool(out, "insert", m.insert);
  out += ',';
  json_bool(out, "newline", m.newline);
  out += ',';
  json_bool(out, "reverse_wraparound", m.reverse_wraparound);
  out += ',';
  json_bool(out, "synchronized_output", m.synchronized_output);
  out += ',';
  json_bool(out, "reverse_video", m.reverse_video);
  out += ',';
  json_int(out, "scroll_top", m.scroll_top);
  out += ',';
  json_int(out, "scroll_bottom", m.scroll_bottom);
  out += "},\"title\":";
  json_string(out, std::string_view(screen.title()));
}

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  auto byte = [&](std::size_t k) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[k]));
  };
  for (; i + 3 <= bytes.size(); i += 3) {
    std::uint32_t n = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
    for (int shift = 18; shift >= 0; shift -= 6) out += kAlphabet[(n >> shift) & 63];
  }
  if (std::size_t rest = bytes.size() - i; rest > 0) {
    std::uint32_t n = byte(i) << 16 | (rest == 2 ? byte(i + 1) << 8 : 0);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += rest == 2 ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

struct Resize {
  std::size_t offset = SIZE_MAX;  // SIZE_MAX: after the whole stream
  long cols = 0;
  long rows = 0;
};

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--chunk N] [--resize CxR[@OFFSET]]... [--scrollback N] [--snapshot] "
               "COLS ROWS [STREAM|-]\n",
               argv0);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t chunk = 0;
  std::size_t scrollback = 0;
  bool with_snapshot = false;
  std::vector<Resize> resizes;
  std::vector<std::string> positional;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string_view arg = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument("missing value");
        return argv[++i];
      };
      if (arg == "--chunk") {
        chunk = std::stoul(value());
      } else if (arg == "--scrollback") {
        scrollback = std::stoul(value());
      } else if (arg == "--snapshot") {
        with_snapshot = true;
      } else if (arg == "--resize") {
        std::string spec = value();
        Resize r;
        std::size_t x = spec.find('x');
        std::size_t at = spec.find('@');
        if (x == std::string::npos) throw std::invalid_argument("bad --resize");
        r.cols = std::stol(spec.substr(0, x));
        r.rows = std::stol(spec.substr(x + 1, at == std::string::npos ? at : at - x - 1));
        if (at != std::string::npos) r.offset = std::stoul(spec.substr(at + 1));
        resizes.push_back(r);
      } else if (arg.size() > 1 && arg.starts_with("-")) {
        return usage(argv[0]);
      } else {
        positional.emplace_back(arg);
      }
    }
    if (positional.size() < 2 || positional.size() > 3) return usage(argv[0]);

    std::string bytes;
    if (positional.size() == 3 && positional[2] != "-") {
      std::ifstream in(positional[2], std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "cannot read %s\n", positional[2].c_str());
        return 1;
      }
      bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } else {
      bytes.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    }

    Screen screen(clamp_size(std::stol(positional[0]), std::stol(positional[1])));
    std::size_t fed = 0;
    auto feed_to = [&](std::size_t end) {
      end = std::min(end, bytes.size());
      while (fed < end) {
        std::size_t n = chunk == 0 ? end - fed : std::min(chunk, end - fed);
        screen.feed(std::string_view(bytes).substr(fed, n));
        fed += n;
      }
    };
    for (const Resize& r : resizes) {
      if (r.offset == SIZE_MAX) continue;
      feed_to(r.offset);
      screen.resize(clamp_size(r.cols, r.rows));
    }
    feed_to(bytes.size());
    for (const Resize& r : resizes)
      if (r.offset == SIZE_MAX) screen.resize(clamp_size(r.cols, r.rows));

    std::string out = "{";
    json_state(out, screen, scrollback);
    if (with_snapshot) {
      std::string snap = screen.snapshot();
      out += ",\"snapshot\":\"";
      out += base64(snap);
      out += "\",\"replica\":{";
      Screen replica(screen.size());
      replica.feed(snap);
      json_state(out, replica, scrollback);
      out += '}';
    }
    out += "}\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return usage(argv[0]);
  }
  return 0;
}
