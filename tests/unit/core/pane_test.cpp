// The web pane's rules (core/pane.hpp): the page cap, titles, where the feedback script
// goes, every cap on a submission (each just under and just over), the rate, and the
// typed line.
#include "core/pane.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>

#include "core/control_message.hpp"

namespace wharf::core {
namespace {

namespace json = boost::json;

std::string fields_text(const json::object& fields) {
  return json::serialize(fields);
}

TEST(Pane, PageCapIsInclusiveAndRefusalSaysTooLarge) {
  EXPECT_TRUE(check_page(std::string(100, 'x'), 100));
  auto over = check_page(std::string(101, 'x'), 100);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, "too_large");
  EXPECT_NE(over.error().message.find("101"), std::string::npos);
  auto empty = check_page("", 100);
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, "bad_page");
}

TEST(Pane, TitleBecomesOneCleanLine) {
  EXPECT_EQ(clean_title("  Plan\nfor\t\x1b[31mtoday  ").value(), "Plan for [31mtoday");
  EXPECT_EQ(clean_title("Caf\xc3\xa9 \xc2\x9b x").value(), "Caf\xc3\xa9 x");  // C1 CSI gone
  EXPECT_EQ(clean_title("").value(), "");
  auto bad = clean_title("a\xff");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "bad_title");
  // Cut on a character boundary.
  std::string long_title;
  for (int i = 0; i < 150; ++i) long_title += "\xc3\xa9";
  std::string cut = clean_title(long_title).value();
  EXPECT_LE(cut.size(), kMaxPaneTitleBytes);
  EXPECT_EQ(cut.size() % 2, 0u);
}

TEST(Pane, FeedbackScriptGoesAfterTheDoctype) {
  std::string doc = pane_document("<!DOCTYPE html>\n<html><body>hi</body></html>");
  EXPECT_TRUE(doc.starts_with("<!DOCTYPE html>\n<script>"));
  EXPECT_NE(doc.find("wharf-feedback"), std::string::npos);
  EXPECT_NE(doc.find("<body>hi</body>"), std::string::npos);
  std::string bare = pane_document("<p>hi</p>");
  EXPECT_TRUE(bare.starts_with("<script>"));
  EXPECT_TRUE(bare.ends_with("<p>hi</p>"));
  EXPECT_TRUE(pane_document("  <!doctype html><p>x").starts_with("  <!doctype html>\n<script>"));
}

TEST(Pane, FeedbackAcceptsTextAndRepeatedNames) {
  auto ok = check_feedback(
      fields_text({{"choice", "b"}, {"tags", json::array{"x", "y"}}, {"note", "line\nnext"}}), {});
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok.value().at("choice").as_string(), "b");
  EXPECT_EQ(ok.value().at("tags").as_array().size(), 2u);
}

TEST(Pane, FeedbackShapeRefusals) {
  for (const char* text : {"[]", "\"x\"", "{", "{\"a\":1}", "{\"a\":null}", "{\"a\":[1]}",
                           "{\"a\":{\"b\":\"c\"}}", "{\"\":\"x\"}", "{\"a\\u0007\":\"x\"}"}) {
    auto refused = check_feedback(text, {});
    ASSERT_FALSE(refused) << text;
    EXPECT_EQ(refused.error().code, "bad_feedback") << text;
  }
  auto not_utf8 = check_feedback("{\"a\":\"\xff\"}", {});
  EXPECT_FALSE(not_utf8);
}

TEST(Pane, FeedbackCapsEachJustUnderAndOver) {
  FeedbackLimits limits;
  // Field count (values, repeated names counted each).
  json::object many;
  for (std::size_t i = 0; i < limits.max_fields; ++i) many["f" + std::to_string(i)] = "v";
  EXPECT_TRUE(check_feedback(fields_text(many), limits));
  many["one_more"] = "v";
  EXPECT_FALSE(check_feedback(fields_text(many), limits));
  json::array repeated;
  for (std::size_t i = 0; i <= limits.max_fields; ++i) repeated.emplace_back("v");
  EXPECT_FALSE(check_feedback(fields_text({{"r", repeated}}), limits));
  // Name length.
  EXPECT_TRUE(
      check_feedback(fields_text({{std::string(limits.max_name_bytes, 'n'), "v"}}), limits));
  EXPECT_FALSE(
      check_feedback(fields_text({{std::string(limits.max_name_bytes + 1, 'n'), "v"}}), limits));
  // Value length.
  EXPECT_TRUE(
      check_feedback(fields_text({{"v", std::string(limits.max_value_bytes, 'x')}}), limits));
  auto long_value =
      check_feedback(fields_text({{"v", std::string(limits.max_value_bytes + 1, 'x')}}), limits);
  ASSERT_FALSE(long_value);
  EXPECT_NE(long_value.error().message.find("'v'"), std::string::npos);
  // Total: six values of 8 KiB are over 48 KiB though each is allowed.
  json::object big;
  for (int i = 0; i < 6; ++i)
    big["v" + std::to_string(i)] = std::string(limits.max_value_bytes, 'x');
  auto total = check_feedback(fields_text(big), limits);
  ASSERT_FALSE(total);
  EXPECT_NE(total.error().message.find("at most"), std::string::npos);
}

TEST(Pane, FeedbackRateAndLifetimeCount) {
  FeedbackLimits limits;
  EXPECT_TRUE(admit_feedback(0, 0, 5000, limits));
  EXPECT_TRUE(admit_feedback(1, 4000, 5000, limits));  // exactly a second later
  auto soon = admit_feedback(1, 4001, 5000, limits);
  ASSERT_FALSE(soon);
  EXPECT_EQ(soon.error().code, "too_soon");
  EXPECT_TRUE(admit_feedback(limits.max_per_page - 1, 1000, 5000, limits));
  auto spent = admit_feedback(limits.max_per_page, 1000, 5000, limits);
  ASSERT_FALSE(spent);
  EXPECT_EQ(spent.error().code, "too_many_feedback");
}

TEST(Pane, LineNamesTitleAndPathOnly) {
  EXPECT_EQ(feedback_line("Plan", "/s/pane/3/feedback/17.json"),
            "[wharf pane: form \"Plan\" submitted; read /s/pane/3/feedback/17.json]");
  EXPECT_EQ(feedback_line("", "/p.json"), "[wharf pane: form submitted; read /p.json]");
}

TEST(Pane, MessageCarriesTheUrlOfTheToken) {
  PaneSummary page{.token = "ab", .title = "T", .bytes = 3, .published_ms = 7};
  json::value message = json::parse(pane_message(4, &page));
  EXPECT_EQ(message.at("type").as_string(), "pane");
  EXPECT_EQ(message.at("page").at("url").as_string(), "/pane/4/ab");
  EXPECT_TRUE(json::parse(pane_message(4, nullptr)).at("page").is_null());
}

TEST(Pane, FeedbackMessageParsesAndRefusesItsShapes) {
  auto parsed = parse_client_message(
      R"({"type":"pane_feedback","session":3,"page":"ab12","fields":{"a":"b"}})");
  auto* request = std::get_if<PaneFeedbackRequest>(&parsed);
  ASSERT_NE(request, nullptr);
  EXPECT_EQ(request->session, 3u);
  EXPECT_EQ(request->page, "ab12");
  EXPECT_EQ(json::parse(request->fields).at("a").as_string(), "b");
  for (const char* text : {R"({"type":"pane_feedback","page":"ab","fields":{}})",
                           R"({"type":"pane_feedback","session":3,"fields":{}})",
                           R"({"type":"pane_feedback","session":3,"page":"ab","fields":[]})",
                           R"({"type":"pane_feedback","session":3,"page":"ab"})"}) {
    auto refused = parse_client_message(text);
    auto* error = std::get_if<ProtocolError>(&refused);
    ASSERT_NE(error, nullptr) << text;
    EXPECT_EQ(error->code, "bad_field") << text;
  }
}

}  // namespace
}  // namespace wharf::core
