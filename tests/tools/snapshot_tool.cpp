// Test helper: feeds a recorded stream to the server's screen model and writes what a
// window attaching now would receive (the snapshot bytes) to a file, and the model's
// own view (text rows, cursor) as JSON on stdout. The xterm.js agreement test renders
// the snapshot with @xterm/headless and compares.
//
//   wharf_snapshot_tool STREAM COLS ROWS SNAPSHOT_OUT
#include <boost/json.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "core/screen.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s STREAM COLS ROWS SNAPSHOT_OUT\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  auto size = wharf::core::clamp_size(std::stol(argv[2]), std::stol(argv[3]));
  wharf::core::Screen screen(size);
  screen.feed(bytes.str());
  std::ofstream(argv[4], std::ios::binary) << screen.snapshot();
  auto text = screen.text(SIZE_MAX);
  boost::json::object out{
      {"lines", boost::json::array(text.lines.begin(), text.lines.end())},
      {"scrollback", boost::json::array(text.scrollback.begin(), text.scrollback.end())},
      {"cursor", boost::json::object{{"row", text.cursor.row}, {"col", text.cursor.col}}},
      {"alternate_screen", text.alternate_screen},
      {"title", text.title}};
  std::printf("%s\n", boost::json::serialize(out).c_str());
  return 0;
}
