// Sandbox capabilities and plans (sandbox/capabilities.hpp, sandbox/plan.hpp): allow-list
// matching, path rules, the mounts bubblewrap gets and their order.
#include "sandbox/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "sandbox/agent_defaults.hpp"

namespace wharf::sandbox {
namespace {

using namespace wharf::core;  // the capabilities the plans are built from

HostLayout layout() {
  HostLayout l;
  l.system_dirs = {"/usr", "/etc", "/opt"};
  l.symlinks = {{"/bin", "usr/bin"}, {"/lib", "usr/lib"}};
  l.secret_files = {"/etc/shadow"};
  l.secret_dirs = {"/etc/ssh"};
  l.home = "/home/ana";
  l.state_dir = "/home/ana/.local/state/wharf";
  l.dns_paths = {"/run/systemd/resolve"};
  return l;
}

Capabilities workspace_only() {
  Capabilities c;
  c.sandboxed = true;
  c.writable = {"/home/ana/src/app"};
  return c;
}

std::size_t index_of(const std::vector<std::string>& argv, std::vector<std::string> run) {
  auto it = std::search(argv.begin(), argv.end(), run.begin(), run.end());
  return it == argv.end() ? std::string::npos : static_cast<std::size_t>(it - argv.begin());
}

TEST(SandboxEndpoint, ParsesHostsPortsAndWildcards) {
  auto plain = endpoint_of("API.Anthropic.com");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain.value().host, "api.anthropic.com");
  EXPECT_EQ(plain.value().port, 443);
  auto ported = endpoint_of("registry.npmjs.org:8443");
  ASSERT_TRUE(ported);
  EXPECT_EQ(ported.value().port, 8443);
  EXPECT_TRUE(endpoint_of("*.githubusercontent.com"));
  for (const char* bad : {"", "a..b", "host:0", "host:70000", "host:x", "*.", "ex ample.com",
                          "http://example.com", "*example.com"})
    EXPECT_FALSE(endpoint_of(bad)) << bad;
}

TEST(SandboxEndpoint, AllowListMatchesExactlyAndWildcardsOnlySubdomains) {
  std::vector<Endpoint> allow{endpoint_of("api.openai.com").value(),
                              endpoint_of("*.example.com:80").value()};
  EXPECT_TRUE(allowed(allow, "api.openai.com", 443));
  EXPECT_TRUE(allowed(allow, "API.OpenAI.com.", 443));
  EXPECT_FALSE(allowed(allow, "api.openai.com", 80));
  EXPECT_FALSE(allowed(allow, "evil-api.openai.com", 443));
  EXPECT_TRUE(allowed(allow, "cdn.example.com", 80));
  EXPECT_FALSE(allowed(allow, "example.com", 80));
  EXPECT_FALSE(allowed(allow, "badexample.com", 80));
  EXPECT_FALSE(allowed(allow, "cdn.example.com", 443));
  EXPECT_FALSE(allowed(allow, "1.2.3.4", 443));
  EXPECT_FALSE(allowed(allow, "api.openai.com/x", 443));
}

TEST(SandboxPaths, NormalisesAndRefusesClimbing) {
  EXPECT_EQ(normal_path("/a//b/./c/").value(), "/a/b/c");
  EXPECT_EQ(normal_path("/").value(), "/");
  EXPECT_FALSE(normal_path("a/b"));
  EXPECT_FALSE(normal_path("/a/../etc"));
  EXPECT_TRUE(within("/a/b", "/a"));
  EXPECT_TRUE(within("/a", "/a"));
  EXPECT_FALSE(within("/ab", "/a"));
}

TEST(SandboxPlan, WorkspaceWritableHomeEmptyNoNetwork) {
  auto plan = plan_sandbox(workspace_only(), layout(), "/home/ana/src/app/web");
  ASSERT_TRUE(plan) << plan.error().message;
  auto argv = bwrap_argv("/usr/bin/bwrap", plan.value(), {"bash", "-l"});
  EXPECT_EQ(argv.front(), "/usr/bin/bwrap");
  EXPECT_NE(index_of(argv, {"--unshare-net"}), std::string::npos);
  EXPECT_NE(index_of(argv, {"--unshare-pid"}), std::string::npos);
  EXPECT_NE(index_of(argv, {"--cap-drop", "ALL"}), std::string::npos);
  EXPECT_NE(index_of(argv, {"--ro-bind", "/usr", "/usr"}), std::string::npos);
  EXPECT_NE(index_of(argv, {"--symlink", "usr/bin", "/bin"}), std::string::npos);
  EXPECT_NE(index_of(argv, {"--tmpfs", "/tmp"}), std::string::npos);
  std::size_t home = index_of(argv, {"--tmpfs", "/home/ana"});
  std::size_t work = index_of(argv, {"--bind", "/home/ana/src/app", "/home/ana/src/app"});
  ASSERT_NE(home, std::string::npos);
  ASSERT_NE(work, std::string::npos);
  EXPECT_LT(home, work) << "the empty HOME must come before what is bound into it";
  // Secrets are covered after every bind.
  std::size_t shadow = index_of(argv, {"--ro-bind", "/dev/null", "/etc/shadow"});
  ASSERT_NE(shadow, std::string::npos);
  EXPECT_GT(shadow, work);
  EXPECT_NE(index_of(argv, {"--tmpfs", "/etc/ssh"}), std::string::npos);
  EXPECT_EQ(index_of(argv, {"--new-session"}), std::string::npos);
  EXPECT_EQ(index_of(argv, {"/run/systemd/resolve"}), std::string::npos);
  // The program comes last, after `--`, in the session's directory.
  std::size_t dashes = index_of(argv, {"--chdir", "/home/ana/src/app/web", "--", "bash", "-l"});
  EXPECT_EQ(dashes, argv.size() - 5);
}

TEST(SandboxPlan, HostNetworkSharesItAndSeesDns) {
  Capabilities c = workspace_only();
  c.network = Network::kHost;
  auto plan = plan_sandbox(c, layout(), "/home/ana/src/app");
  ASSERT_TRUE(plan);
  auto argv = bwrap_argv("bwrap", plan.value(), {"sh"});
  EXPECT_EQ(index_of(argv, {"--unshare-net"}), std::string::npos);
  EXPECT_NE(index_of(argv, {"--ro-bind", "/run/systemd/resolve", "/run/systemd/resolve"}),
            std::string::npos);
}

TEST(SandboxPlan, ParentsBindBeforeChildrenAndWritableWinsOverReadable) {
  Capabilities c = workspace_only();
  c.readable = {"/home/ana/.claude/agents", "/home/ana/src", "/home/ana/src/app"};
  c.writable = {"/home/ana/.claude", "/home/ana/src/app"};
  auto plan = plan_sandbox(c, layout(), "/home/ana/src/app");
  ASSERT_TRUE(plan);
  auto argv = bwrap_argv("bwrap", plan.value(), {"sh"});
  std::size_t src = index_of(argv, {"--ro-bind", "/home/ana/src", "/home/ana/src"});
  std::size_t app = index_of(argv, {"--bind", "/home/ana/src/app", "/home/ana/src/app"});
  std::size_t claude = index_of(argv, {"--bind", "/home/ana/.claude", "/home/ana/.claude"});
  std::size_t agents =
      index_of(argv, {"--ro-bind", "/home/ana/.claude/agents", "/home/ana/.claude/agents"});
  ASSERT_NE(src, std::string::npos);
  ASSERT_NE(app, std::string::npos);
  ASSERT_NE(claude, std::string::npos);
  ASSERT_NE(agents, std::string::npos);
  EXPECT_LT(src, app);
  EXPECT_LT(claude, agents);
  EXPECT_EQ(index_of(argv, {"--ro-bind", "/home/ana/src/app", "/home/ana/src/app"}),
            std::string::npos)
      << "a path both readable and writable is bound once, writable";
}

TEST(SandboxPlan, StateDirectoryIsNeverReachable) {
  Capabilities c = workspace_only();
  c.readable = {"/home/ana/.local"};
  auto plan = plan_sandbox(c, layout(), "/home/ana/src/app");
  ASSERT_TRUE(plan);
  auto argv = bwrap_argv("bwrap", plan.value(), {"sh"});
  std::size_t local = index_of(argv, {"--ro-bind", "/home/ana/.local", "/home/ana/.local"});
  std::size_t hidden = index_of(argv, {"--tmpfs", "/home/ana/.local/state/wharf"});
  ASSERT_NE(hidden, std::string::npos) << "a readable parent of the state dir must not show it";
  EXPECT_GT(hidden, local);

  Capabilities inside = workspace_only();
  inside.writable.push_back("/home/ana/.local/state/wharf/panes");
  auto refused = plan_sandbox(inside, layout(), "/home/ana/src/app");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, "not_permitted");
  EXPECT_NE(refused.error().message.find("state directory"), std::string::npos);
}

TEST(SandboxPlan, KeysInHomeStayCoveredUnderABroadBindUnlessAskedFor) {
  HostLayout l = layout();
  l.secret_dirs.push_back("/home/ana/.ssh");
  l.secret_files.push_back("/home/ana/.netrc");
  // A workspace that is HOME itself would show every key: they are covered, after the bind.
  Capabilities home = workspace_only();
  home.writable = {"/home/ana"};
  auto argv = bwrap_argv("bwrap", plan_sandbox(home, l, "/home/ana").value(), {"sh"});
  std::size_t bound = index_of(argv, {"--bind", "/home/ana", "/home/ana"});
  std::size_t ssh = index_of(argv, {"--tmpfs", "/home/ana/.ssh"});
  std::size_t netrc = index_of(argv, {"--ro-bind", "/dev/null", "/home/ana/.netrc"});
  ASSERT_NE(ssh, std::string::npos);
  ASSERT_NE(netrc, std::string::npos);
  EXPECT_GT(ssh, bound);
  EXPECT_GT(netrc, bound);
  // A bind that does not reach them leaves them absent anyway: nothing is laid for them.
  auto narrow =
      bwrap_argv("bwrap", plan_sandbox(workspace_only(), l, "/home/ana/src/app").value(), {"sh"});
  EXPECT_EQ(index_of(narrow, {"--tmpfs", "/home/ana/.ssh"}), std::string::npos);
  // Declared by name, it is shown: that is what the operator asked for.
  Capabilities asked = home;
  asked.readable = {"/home/ana/.ssh"};
  auto shown = bwrap_argv("bwrap", plan_sandbox(asked, l, "/home/ana").value(), {"sh"});
  EXPECT_EQ(index_of(shown, {"--tmpfs", "/home/ana/.ssh"}), std::string::npos);
  // The machine's own secrets are covered whatever is bound.
  EXPECT_NE(index_of(narrow, {"--tmpfs", "/etc/ssh"}), std::string::npos);
}

TEST(SandboxPlan, RefusesWhatItCannotHonour) {
  Capabilities c = workspace_only();
  auto outside = plan_sandbox(c, layout(), "/srv/other");
  ASSERT_FALSE(outside);
  EXPECT_NE(outside.error().message.find("/srv/other"), std::string::npos);

  c.writable = {"relative/path"};
  EXPECT_FALSE(plan_sandbox(c, layout(), "/home/ana"));
  c.writable = {"/home/ana/../../etc"};
  EXPECT_FALSE(plan_sandbox(c, layout(), "/home/ana"));
  c.writable = {"/"};
  auto root = plan_sandbox(c, layout(), "/home/ana");
  ASSERT_FALSE(root);
  EXPECT_NE(root.error().message.find("whole machine"), std::string::npos);
}

TEST(SandboxAgents, BuiltInAgentsNameTheirApiHostsAndTheirOwnDirectories) {
  auto claude = agent_needs("claude");
  EXPECT_TRUE(allowed(claude.hosts, "api.anthropic.com", 443));
  EXPECT_FALSE(allowed(claude.hosts, "api.openai.com", 443));
  EXPECT_NE(std::find(claude.home_paths.begin(), claude.home_paths.end(), ".claude"),
            claude.home_paths.end());
  EXPECT_TRUE(allowed(agent_needs("codex").hosts, "api.openai.com", 443));
  EXPECT_TRUE(allowed(agent_needs("opencode").hosts, "models.dev", 443));
  EXPECT_TRUE(agent_needs("bash").hosts.empty());
  for (std::string_view agent : {"claude", "codex", "opencode", "gemini", "cline"}) {
    for (const std::string& path : agent_needs(agent).home_paths)
      EXPECT_FALSE(path.starts_with('/') || path.find("..") != std::string::npos) << path;
  }
}

}  // namespace
}  // namespace wharf::sandbox
