#include "mcp/json_line.hpp"

#include <gtest/gtest.h>

namespace wharf::mcp {
namespace {

namespace json = boost::json;

TEST(McpJsonLine, KeepsValidUtf8AsItIs) {
  std::string text = "plain \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xEF\xBF\xBF";
  EXPECT_EQ(valid_utf8(text), text);
  EXPECT_EQ(valid_utf8(""), "");
}

TEST(McpJsonLine, ReplacesEachMaximalSubpartWithOneReplacementCharacter) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(valid_utf8("a\x80z"), "a" + r + "z");
  EXPECT_EQ(valid_utf8("a\xC0\xAFz"), "a" + r + r + "z");    // overlong lead
  EXPECT_EQ(valid_utf8("a\xE2\x82z"), "a" + r + "z");        // cut short
  EXPECT_EQ(valid_utf8("a\xE2\x82"), "a" + r);               // cut short at the end
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), r + r + r);          // a surrogate
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), r + r + r + r);  // past U+10FFFF
  EXPECT_EQ(valid_utf8("\xF0\x9F\x98\""), r + "\"");         // ASCII is never eaten
  EXPECT_EQ(valid_utf8("\xFF\xFE"), r + r);
}

TEST(McpJsonLine, CutsOnlyBetweenCodePoints) {
  std::string text = "ab\xE2\x82\xAC";  // "ab€"
  EXPECT_EQ(utf8_prefix(text, 10), text);
  EXPECT_EQ(utf8_prefix(text, 5), text);
  EXPECT_EQ(utf8_prefix(text, 4), "ab");
  EXPECT_EQ(utf8_prefix(text, 3), "ab");
  EXPECT_EQ(utf8_prefix(text, 2), "ab");
  EXPECT_EQ(utf8_prefix(text, 0), "");
}

TEST(McpJsonLine, ResponsesAreOneLineOfValidJson) {
  std::string line = error_response("x\ny", kInvalidParams, "bad\r\nthing \x01\xFF");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.find('\r'), std::string::npos);
  json::value v = json::parse(line);  // throws on invalid UTF-8
  EXPECT_EQ(v.at("jsonrpc"), "2.0");
  EXPECT_EQ(v.at("id"), "x\ny");
  EXPECT_EQ(v.at("error").at("code"), kInvalidParams);
  EXPECT_EQ(v.at("error").at("message"), "bad\r\nthing \x01\xEF\xBF\xBD");

  EXPECT_EQ(result_response(7, json::object{}), R"({"jsonrpc":"2.0","id":7,"result":{}})");
  EXPECT_EQ(error_response(nullptr, kParseError, "no"),
            R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"no"}})");
}

}  // namespace
}  // namespace wharf::mcp
