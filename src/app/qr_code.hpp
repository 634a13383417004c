// QR codes of pairing links (libqrencode): as SVG for the page's "Pair a device" dialog and
// as Unicode half blocks for `wharf pair` in a terminal. Both keep the four-module quiet
// zone scanners need, and draw dark modules dark on a light ground whatever the terminal's
// colours (the terminal form sets its own colours), since phones read dark-on-light best.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"

namespace wharf::app {

// An <svg> element, one path for all dark modules, scaled by the viewBox.
core::Result<std::string> qr_svg(std::string_view text);
// Lines of "▀▄█ " (two modules per character cell, upper and lower), each line wrapped
// in black-on-white SGR so the code reads on dark and light terminals alike.
core::Result<std::string> qr_terminal(std::string_view text);

}  // namespace wharf::app
