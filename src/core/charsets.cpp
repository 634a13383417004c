#include "core/charsets.hpp"

#include <string_view>

namespace wharf::core {
namespace {

// The national replacement sets xterm.js knows (ESC ( A, ESC ( K ...): which ASCII
// characters each replaces, and with what.
struct NationalSet {
  char designator;
  std::u32string_view from;
  std::u32string_view to;
};
constexpr NationalSet kNationalSets[] = {
    {'A', U"#", U"£"},
    {'4', U"#@[\\]{|}~", U"£¾i½|¨f¼´"},
    {'C', U"[\\]^`{|}~", U"ÄÖÅÜéäöåü"},
    {'5', U"[\\]^`{|}~", U"ÄÖÅÜéäöåü"},
    {'R', U"#@[\\]{|}~", U"£à°ç§éùè¨"},
    {'Q', U"@[\\]^`{|}~", U"àâçêîôéùèû"},
    {'K', U"@[\\]{|}~", U"§ÄÖÜäöüß"},
    {'Y', U"#@[\\]`{|}~", U"£§°çéùàòèì"},
    {'E', U"@[\\]^`{|}~", U"ÄÆØÅÜäæøåü"},
    {'6', U"@[\\]^`{|}~", U"ÄÆØÅÜäæøåü"},
    {'Z', U"#@[\\]{|}", U"£§¡Ñ¿°ñç"},
    {'H', U"@[\\]^`{|}~", U"ÉÄÖÅÜéäöåü"},
    {'7', U"@[\\]^`{|}~", U"ÉÄÖÅÜéäöåü"},
    {'=', U"#@[\\]^_`{|}~", U"ùàéçêîèôäöüû"},
};

}  // namespace

bool known_charset(char designator) {
  if (designator == '0' || designator == 'B') return true;
  for (const NationalSet& set : kNationalSets)
    if (set.designator == designator) return true;
  return false;
}

// What xterm.js draws for an ASCII character in a designated set: DEC special graphics
// (ESC ( 0) or a national set; US ASCII ('B') maps nothing.
char32_t map_charset(char designator, char32_t code) {
  if (designator == 'B') return code;
  if (designator == '0') {
    static constexpr char32_t kGraphics[] = {
        0x25C6, 0x2592, 0x2409, 0x240C, 0x240D, 0x240A, 0x00B0, 0x00B1, 0x2424, 0x240B, 0x2518,
        0x2510, 0x250C, 0x2514, 0x253C, 0x23BA, 0x23BB, 0x2500, 0x23BC, 0x23BD, 0x251C, 0x2524,
        0x2534, 0x252C, 0x2502, 0x2264, 0x2265, 0x03C0, 0x2260, 0x00A3, 0x00B7};  // ` .. ~
    if (code >= 0x60 && code <= 0x7E) return kGraphics[code - 0x60];
    return code;
  }
  for (const NationalSet& set : kNationalSets) {
    if (set.designator != designator) continue;
    std::size_t at = set.from.find(code);
    return at == std::u32string_view::npos ? code : set.to[at];
  }
  return code;
}

}  // namespace wharf::core
