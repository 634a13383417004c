#include "app/qr_code.hpp"

#include <qrencode.h>

#include <memory>
#include <vector>

namespace wharf::app {
namespace {

constexpr int kQuietZone = 4;

// The modules as rows of booleans (true: dark), quiet zone included.
core::Result<std::vector<std::vector<bool>>> modules(std::string_view text) {
  std::string copy(text);
  std::unique_ptr<QRcode, decltype(&QRcode_free)> code(
      QRcode_encodeString8bit(copy.c_str(), 0, QR_ECLEVEL_M), &QRcode_free);
  if (!code) return core::Error{"cannot draw a QR code of that link", "internal"};
  int width = code->width;
  int full = width + 2 * kQuietZone;
  std::vector<std::vector<bool>> rows(static_cast<std::size_t>(full),
                                      std::vector<bool>(static_cast<std::size_t>(full), false));
  for (int y = 0; y < width; ++y)
    for (int x = 0; x < width; ++x)
      rows[static_cast<std::size_t>(y + kQuietZone)][static_cast<std::size_t>(x + kQuietZone)] =
          (code->data[y * width + x] & 1) != 0;
  return rows;
}

}  // namespace

core::Result<std::string> qr_svg(std::string_view text) {
  auto grid = modules(text);
  if (!grid) return grid.error();
  const auto& rows = grid.value();
  std::string size = std::to_string(rows.size());
  std::string path;
  for (std::size_t y = 0; y < rows.size(); ++y)
    for (std::size_t x = 0; x < rows[y].size(); ++x)
      if (rows[y][x]) path += "M" + std::to_string(x) + " " + std::to_string(y) + "h1v1h-1z";
  return R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 )" + size + " " + size +
         R"(" shape-rendering="crispEdges" role="img" aria-label="QR code of the pairing link">)" +
         R"(<rect width="100%" height="100%" fill="#fff"/><path fill="#000" d=")" + path +
         R"("/></svg>)";
}

core::Result<std::string> qr_terminal(std::string_view text) {
  auto grid = modules(text);
  if (!grid) return grid.error();
  const auto& rows = grid.value();
  std::string out;
  for (std::size_t y = 0; y < rows.size(); y += 2) {
    out += "\x1b[30;47m";  // black on white: dark modules stay dark on any theme
    for (std::size_t x = 0; x < rows[y].size(); ++x) {
      bool top = rows[y][x];
      bool bottom = y + 1 < rows.size() && rows[y + 1][x];
      out += top && bottom ? "\u2588" : top ? "\u2580" : bottom ? "\u2584" : " ";
    }
    out += "\x1b[0m\n";
  }
  return out;
}

}  // namespace wharf::app
