// The character sets a program can designate with ESC ( and its kin, as xterm.js 6.0.0
// knows them: DEC special graphics ('0'), US ASCII ('B', which maps nothing) and the
// national replacement sets ('A', 'K', 'R'...). Pure tables, used by the engine.
#pragma once

namespace wharf::core {

// Whether xterm.js acts on a designation with this final byte (others are ignored).
bool known_charset(char designator);
// What is drawn for an ASCII character in the designated set.
char32_t map_charset(char designator, char32_t code);

}  // namespace wharf::core
