// The engine's pen: SGR as xterm.js 6.0.0 parses it, and the rarer extras cells refer to
// by index (underline colours and OSC 8 hyperlinks), interned and collected when full.
#include <algorithm>
#include <string>

#include "core/screen.hpp"

namespace wharf::core {
namespace {

std::uint32_t update_color(std::uint32_t color, int mode, int c1, int c2, int c3) {
  if (mode == 2) {
    return kColorRgb | (static_cast<std::uint32_t>(c1 & 0xFF) << 16) |
           (static_cast<std::uint32_t>(c2 & 0xFF) << 8) | static_cast<std::uint32_t>(c3 & 0xFF);
  }
  if (mode == 5) return kColorPalette256 | static_cast<std::uint32_t>(c1 & 0xFF);
  return color;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

// SGR, as xterm.js's charAttributes: colours in both the ';' and the ':' forms (parsed
// exactly as xterm.js parses them), underline styles 4:0-4:5 and their colour (58/59).
void Screen::apply_sgr(const VtParams& params) {
  StyleExtra extra = extras_[pen_.extra];
  auto sgr0 = [&] {
    pen_.fg = kColorDefault;
    pen_.bg = kColorDefault;
    pen_.flags = 0;
    extra.underline_color = kColorDefault;
  };
  auto set_underline = [&](int style) {
    if (style < 0 || style > 5) style = 1;
    pen_.flags = static_cast<std::uint16_t>((pen_.flags & ~unsigned{kUnderlineMask}) |
                                            (static_cast<unsigned>(style) << kUnderlineShift));
  };
  auto on = [&](std::uint16_t bit) { pen_.flags |= bit; };
  auto off = [&](std::uint16_t bit) { pen_.flags &= static_cast<std::uint16_t>(~bit); };
  if (params.size() == 1 && params[0] == 0) {
    sgr0();
    set_extra(extra);
    return;
  }
  for (int i = 0; i < params.size(); ++i) {
    int p = params[i];
    if (p >= 30 && p <= 37) {
      pen_.fg = kColorPalette16 | static_cast<std::uint32_t>(p - 30);
    } else if (p >= 40 && p <= 47) {
      pen_.bg = kColorPalette16 | static_cast<std::uint32_t>(p - 40);
    } else if (p >= 90 && p <= 97) {
      pen_.fg = kColorPalette16 | static_cast<std::uint32_t>(p - 90 + 8);
    } else if (p >= 100 && p <= 107) {
      pen_.bg = kColorPalette16 | static_cast<std::uint32_t>(p - 100 + 8);
    } else if (p == 38 || p == 48 || p == 58) {
      // xterm.js's _extractColor, step for step. Its JavaScript array grows when a write
      // lands past the six slots it reads (the colour space can shift a write by one), so
      // here the array has room for every write it can make, and only slots 0-5 are read.
      int accu[16] = {0, 0, -1, 0, 0, 0};
      auto put = [&accu](int at, int value) {
        if (at >= 0 && at < 16) accu[at] = value;
      };
      int space = 0;
      int advance = 0;
      do {
        put(advance + space, params[i + advance]);
        if (params.has_subs(i + advance)) {
          auto subs = params.subs(i + advance);
          std::size_t k = 0;
          do {
            if (accu[1] == 5) space = 1;
            put(advance + static_cast<int>(k) + 1 + space, subs[k]);
          } while (++k < subs.size() && static_cast<int>(k) + advance + 1 + space < 6);
          break;
        }
        if ((accu[1] == 5 && advance + space >= 2) || (accu[1] == 2 && advance + space >= 5)) break;
        if (accu[1] != 0) space = 1;
      } while (++advance + i < params.size() && advance + space < 6);
      for (int k = 2; k < 6; ++k)
        if (accu[k] == -1) accu[k] = 0;
      if (accu[0] == 38) pen_.fg = update_color(pen_.fg, accu[1], accu[3], accu[4], accu[5]);
      if (accu[0] == 48) pen_.bg = update_color(pen_.bg, accu[1], accu[3], accu[4], accu[5]);
      if (accu[0] == 58)
        extra.underline_color =
            update_color(extra.underline_color, accu[1], accu[3], accu[4], accu[5]);
      i += advance;
    } else {
      switch (p) {
        case 0:
          sgr0();
          break;
        case 1:
          on(kBold);
          break;
        case 2:
          on(kFaint);
          break;
        case 3:
          on(kItalic);
          break;
        case 4:
          set_underline(params.has_subs(i) ? params.subs(i)[0] : 1);
          break;
        case 5:
          on(kBlink);
          break;
        case 7:
          on(kInverse);
          break;
        case 8:
          on(kInvisible);
          break;
        case 9:
          on(kStrike);
          break;
        case 21:
          set_underline(2);
          break;
        case 22:
          off(kBold | kFaint);
          break;
        case 23:
          off(kItalic);
          break;
        case 24:
          set_underline(0);
          break;
        case 25:
          off(kBlink);
          break;
        case 27:
          off(kInverse);
          break;
        case 28:
          off(kInvisible);
          break;
        case 29:
          off(kStrike);
          break;
        case 39:
          pen_.fg = kColorDefault;
          break;
        case 49:
          pen_.bg = kColorDefault;
          break;
        case 53:
          on(kOverline);
          break;
        case 55:
          off(kOverline);
          break;
        case 59:
          // xterm.js 6 stores -1 here, which it then reads as RGB white.
          extra.underline_color = kColorRgb | 0xFFFFFFu;
          break;
        default:
          break;
      }
    }
  }
  set_extra(extra);
}

void Screen::set_extra(StyleExtra extra) {
  pen_.extra = extra == StyleExtra{} ? 0 : intern_extra(extra);
}

std::uint16_t Screen::intern_extra(const StyleExtra& extra) {
  for (std::size_t i = extras_.size(); i-- > 1;)
    if (extras_[i] == extra) return static_cast<std::uint16_t>(i);
  if (extras_.size() >= kMaxExtras) collect_extras();
  if (extras_.size() >= kMaxExtras) return 0;  // every one still in use: drop it
  extras_.push_back(extra);
  return static_cast<std::uint16_t>(extras_.size() - 1);
}

std::uint32_t Screen::intern_link(Hyperlink link) {
  for (std::size_t i = links_.size(); i-- > 1;)
    if (links_[i] == link) return static_cast<std::uint32_t>(i);
  if (links_.size() >= kMaxExtras) collect_extras();
  if (links_.size() >= kMaxExtras) return 0;
  links_.push_back(std::move(link));
  return static_cast<std::uint32_t>(links_.size() - 1);
}

// Drops the extras and links no cell or pen refers to any more (the scrollback holds
// its links as text), renumbering the rest.
void Screen::collect_extras() {
  std::vector<std::uint16_t> extra_map(extras_.size(), 0);
  std::vector<std::uint32_t> link_map(links_.size(), 0);
  std::vector<StyleExtra> extras{StyleExtra{}};
  std::vector<Hyperlink> links{Hyperlink{}};
  auto keep = [&](std::uint16_t& ref) {
    if (ref == 0 || ref >= extra_map.size()) return;
    if (extra_map[ref] == 0) {
      StyleExtra e = extras_[ref];
      if (e.link != 0) {
        if (link_map[e.link] == 0) {
          link_map[e.link] = static_cast<std::uint32_t>(links.size());
          links.push_back(links_[e.link]);
        }
        e.link = link_map[e.link];
      }
      extra_map[ref] = static_cast<std::uint16_t>(extras.size());
      extras.push_back(e);
    }
    ref = extra_map[ref];
  };
  auto keep_grid = [&](CellGrid& g) {
    for (int row = 0; row < g.rows(); ++row)
      for (Cell& c : g.line(row).cells) keep(c.style.extra);
  };
  keep_grid(primary_.grid);
  if (alt_) keep_grid(alt_->grid);
  keep(pen_.extra);
  keep(primary_.saved.pen.extra);
  keep(alt_saved_.pen.extra);
  extras_ = std::move(extras);
  links_ = std::move(links);
}

void Screen::set_hyperlink(std::string_view data) {
  std::size_t semi = data.find(';');
  if (semi == std::string_view::npos) return;
  std::string_view params = trim(data.substr(0, semi));
  std::string_view uri = data.substr(semi + 1);
  StyleExtra extra = extras_[pen_.extra];
  if (!uri.empty()) {
    Hyperlink link{{}, std::string(uri)};
    std::size_t start = 0;
    while (start <= params.size()) {
      std::size_t end = params.find(':', start);
      if (end == std::string_view::npos) end = params.size();
      std::string_view part = params.substr(start, end - start);
      if (part.starts_with("id=")) {
        link.id = std::string(part.substr(3));
        break;
      }
      start = end + 1;
    }
    extra.link = intern_link(std::move(link));
  } else if (!params.empty()) {
    return;
  } else {
    extra.link = 0;
  }
  set_extra(extra);
}

}  // namespace wharf::core
