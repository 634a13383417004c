// The rules for a session's environment variables (core/env_spec.hpp): one test per
// refusal, the layering order, and the drift guard on the names wharf sets itself.
#include "core/env_spec.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace wharf::core {
namespace {

std::string refusal(const std::vector<std::string>& specs) {
  auto parsed = parse_env_specs(specs);
  EXPECT_FALSE(parsed) << "expected a refusal";
  return parsed ? std::string() : parsed.error().message;
}

TEST(EnvSpec, TakesLiteralValuesWithEqualsAndEmptyValues) {
  auto parsed = parse_env_specs(
      std::vector<std::string>{"TICKET=T-7", "EMPTY=", "URL=a=b", "HOME_REF=$HOME"});
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed.value(),
            (EnvList{{"TICKET", "T-7"}, {"EMPTY", ""}, {"URL", "a=b"}, {"HOME_REF", "$HOME"}}));
}

TEST(EnvSpec, RefusesKeyWithoutEquals) {
  EXPECT_NE(refusal({"TICKET"}).find("has no '='"), std::string::npos);
}

TEST(EnvSpec, RefusesEmptyKey) {
  EXPECT_NE(refusal({"=value"}).find("needs a name"), std::string::npos);
}

TEST(EnvSpec, RefusesTheSameKeyTwice) {
  EXPECT_NE(refusal({"A=1", "A=2"}).find("given twice"), std::string::npos);
}

TEST(EnvSpec, RefusesNonIdentifiers) {
  for (std::string bad : {"1ABC=x", "A-B=x", "A B=x", "\xc3\xa9t\xc3\xa9=x", "A.B=x"})
    EXPECT_NE(refusal({bad}).find("not a variable name"), std::string::npos) << bad;
}

TEST(EnvSpec, RefusesNulInValue) {
  std::string spec("SECRET=abc");
  spec.push_back('\0');
  spec += "def";
  std::string message = refusal({spec});
  EXPECT_NE(message.find("NUL"), std::string::npos);
  EXPECT_EQ(message.find("abc"), std::string::npos) << "a value must never be echoed";
}

TEST(EnvSpec, RefusesEveryNameWharfSets) {
  for (std::string_view name : kNamesWharfSets) {
    std::string message = refusal({std::string(name) + "=x"});
    EXPECT_NE(message.find("set by wharf"), std::string::npos) << name;
  }
}

TEST(EnvSpec, OtherWharfNamesAreTheSessionsToUse) {
  EXPECT_TRUE(parse_env_specs(std::vector<std::string>{"WHARF_TICKET=1"}));
}

TEST(EnvSpec, RepoLayerMayNotSetLoaderVariables) {
  for (std::string_view name : kLoaderNames) {
    EnvList vars{{std::string(name), "/tmp/x.so"}};
    auto repo = check_env_layer(vars, EnvLayer::kRepo);
    ASSERT_FALSE(repo) << name;
    EXPECT_NE(repo.error().message.find("dynamic loader"), std::string::npos);
    EXPECT_TRUE(check_env_layer(vars, EnvLayer::kSession)) << "the session's own choice";
    EXPECT_TRUE(check_env_layer(vars, EnvLayer::kMachine)) << "the operator's own choice";
  }
}

TEST(EnvSpec, RefusesOverlongValues) {
  EXPECT_NE(refusal({"BIG=" + std::string(kMaxEnvValueBytes + 1, 'x')}).find("longer"),
            std::string::npos);
}

TEST(EnvSpec, ValuesNeverAppearInMessages) {
  std::string message = refusal({"1BAD=hunter2-secret"});
  EXPECT_EQ(message.find("hunter2"), std::string::npos);
}

TEST(EnvFile, ParsesLinesCommentsAndBlanks) {
  auto parsed = parse_env_file("# repo settings\n\nREGION=repo\r\nTICKET=T-1\n", ".wharf/env");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed.value(), (EnvList{{"REGION", "repo"}, {"TICKET", "T-1"}}));
}

TEST(EnvFile, ErrorsNameFileAndLine) {
  auto parsed = parse_env_file("A=1\n# fine\nexport B=2\n", "/w/.wharf/env");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().message.rfind("/w/.wharf/env:3: ", 0), 0u) << parsed.error().message;
}

TEST(EnvFile, RefusesDuplicatesLoaderAndReservedNames) {
  EXPECT_FALSE(parse_env_file("A=1\nA=2\n", "f"));
  EXPECT_FALSE(parse_env_file("LD_PRELOAD=/x.so\n", "f"));
  EXPECT_FALSE(parse_env_file("WHARF_SESSION_ID=9\n", "f"));
  EXPECT_FALSE(parse_env_file("NOEQUALS\n", "f"));
}

TEST(EnvLayers, SessionOverRepoOverMachineOverBase) {
  std::vector<std::string> base{"HOME=/home/u", "PATH=/usr/bin", "REGION=base"};
  EnvList machine{{"REGION", "machine"}, {"ACCOUNT", "acme"}, {"TICKET", "machine"}};
  EnvList repo{{"REGION", "repo"}, {"TICKET", "repo"}};
  EnvList session{{"REGION", "session"}, {"RUN", "7"}};
  const EnvList* layers[] = {&machine, &repo, &session};
  auto env = layer_environment(base, layers);
  EXPECT_EQ(env, (std::vector<std::string>{"ACCOUNT=acme", "HOME=/home/u", "PATH=/usr/bin",
                                           "REGION=session", "RUN=7", "TICKET=repo"}));
}

TEST(EnvDangerous, RequestsMayNotSetDangerousNamesUnlessAllowed) {
  for (std::string_view name :
       {"LD_PRELOAD", "LD_BIND_NOW", "BASH_ENV", "ENV", "PROMPT_COMMAND", "PS4", "SHELLOPTS",
        "BASHOPTS", "IFS", "GCONV_PATH", "PYTHONSTARTUP", "NODE_OPTIONS", "PERL5OPT",
        "GIT_SSH_COMMAND", "PATH"}) {
    EnvList vars{{"SAFE", "1"}, {std::string(name), "x"}};
    auto refused = check_request_env_names(vars, {});
    ASSERT_FALSE(refused) << name;
    EXPECT_EQ(refused.error().code, "bad_env");
    EXPECT_NE(refused.error().message.find("allow_env"), std::string::npos);
    EXPECT_EQ(refused.error().message.find("\"x\""), std::string::npos) << "never the value";
    std::vector<std::string> allowed{std::string(name)};
    EXPECT_TRUE(check_request_env_names(vars, allowed)) << name;
    // Still refused from a repository, allowed or not.
    EXPECT_FALSE(parse_env_file(std::string(name) + "=x\n", "f")) << name;
  }
  EXPECT_TRUE(
      check_request_env_names(EnvList{{"LANG", "C"}, {"PATHS", "x"}, {"MY_PATH", "y"}}, {}));
  std::vector<std::string> other{"PATH"};
  EXPECT_FALSE(check_request_env_names(EnvList{{"BASH_ENV", "x"}}, other));
}

TEST(EnvDangerous, TheMachineLayerMaySetThem) {
  EXPECT_TRUE(
      check_env_layer(EnvList{{"PATH", "/opt/bin"}, {"LD_PRELOAD", "/x.so"}}, EnvLayer::kMachine));
  EXPECT_TRUE(check_env_layer(EnvList{{"PATH", "/opt/bin"}}, EnvLayer::kSession))
      << "the layer check alone leaves the decision to the request layer";
}

}  // namespace
}  // namespace wharf::core
