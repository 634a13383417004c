#include "app/qr_code.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

namespace wharf::app {
namespace {

constexpr std::string_view kLink = "http://192.168.1.20:7373/pair/ABCDEFGH23";

TEST(QrCode, TheSvgIsOneSquareImageWithItsQuietZone) {
  auto svg = qr_svg(kLink);
  ASSERT_TRUE(svg) << svg.error().message;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg.value(), m, std::regex(R"re(viewBox="0 0 (\d+) (\d+)")re")));
  EXPECT_EQ(m[1], m[2]);
  // Version 3 (29 modules) fits this link at level M; four blank modules on each side.
  EXPECT_EQ(std::stoi(m[1]), 29 + 8);
  EXPECT_NE(svg.value().find(R"(<path fill="#000" d="M)"), std::string::npos);
  EXPECT_EQ(svg.value().find("<script"), std::string::npos);
}

TEST(QrCode, TheTerminalFormTakesTwoModulesPerCell) {
  auto text = qr_terminal(kLink);
  ASSERT_TRUE(text) << text.error().message;
  std::istringstream lines(text.value());
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    ++count;
    EXPECT_TRUE(line.starts_with("\x1b[30;47m")) << count;
    EXPECT_TRUE(line.ends_with("\x1b[0m")) << count;
  }
  EXPECT_EQ(count, (29 + 8 + 1) / 2);
  EXPECT_NE(text.value().find("\u2588"), std::string::npos);  // a full block: two dark modules
}

}  // namespace
}  // namespace wharf::app
