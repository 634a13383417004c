#include "cli/guard_shim.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/channel_client.hpp"
#include "core/guard_rules.hpp"

namespace wharf::cli {
namespace {

int say(const std::string& text, int status) {
  std::fprintf(stderr, "wharf: %s\n", text.c_str());
  return status;
}

int exec_real(const std::string& name, char** argv) {
  std::string real = std::string(kRealProgramDir) + "/" + name;
  execv(real.c_str(), argv);
  int err = errno;
  return say("cannot run the real " + name + " (" + real + "): " + std::strerror(err) +
                 (err == ENOENT ? "; it was not found on the host when this sandbox started" : ""),
             127);
}

std::string current_directory() {
  std::vector<char> buffer(4096);
  for (;;) {
    if (getcwd(buffer.data(), buffer.size()) != nullptr) return buffer.data();
    if (errno != ERANGE || buffer.size() > (1U << 20)) return "/";
    buffer.resize(buffer.size() * 2);
  }
}

// Waits for the daemon's answers to one guard request; the exit status of the shim.
int await_decision(ChannelClient& client, const core::GuardVerdict& verdict) {
  for (;;) {
    auto reply = client.read_reply();
    if (!reply)
      return say("lost the answer for `" + verdict.what + "`: " + reply.error().message, 1);
    const core::ChannelReply& r = reply.value();
    if (const auto* pending = std::get_if<core::ChannelPending>(&r)) {
      std::fprintf(stderr,
                   "wharf: `%s` needs your approval (decision %llu); answer it in the page, "
                   "`wharf decisions`, or MCP.\n",
                   verdict.what.c_str(), static_cast<unsigned long long>(pending->id));
    } else if (std::holds_alternative<core::ChannelApproved>(r)) {
      continue;  // the real command runs next, on this process's terminal
    } else if (const auto* exited = std::get_if<core::ChannelExited>(&r)) {
      if (exited->signal) return 128 + *exited->signal;
      return exited->code.value_or(1);
    } else if (const auto* denied = std::get_if<core::ChannelDenied>(&r)) {
      std::string by = denied->by.empty() ? "the person" : denied->by;
      return say("denied by " + by + (denied->note.empty() ? "" : ": " + denied->note), 1);
    } else if (std::holds_alternative<core::ChannelExpired>(r)) {
      return say("`" + verdict.what + "` was not approved in time; it did not run", 1);
    } else if (const auto* failure = std::get_if<core::ChannelFailure>(&r)) {
      return say("`" + verdict.what + "` did not run: " + failure->message, 1);
    } else {
      return say("the daemon sent an unexpected answer for `" + verdict.what + "`", 1);
    }
  }
}

}  // namespace

bool is_guard_shim(const char* argv0) {
  if (argv0 == nullptr) return false;
  std::string_view name = core::program_basename(argv0);
  return name == "git" || name == "gh";
}

int run_guard_shim(int argc, char** argv) {
  std::string name(core::program_basename(argv[0]));
  std::vector<std::string> args(argv, argv + argc);
  core::GuardVerdict verdict = core::check_guard(name, args);
  if (!verdict.guarded) return exec_real(name, argv);

  const char* channel = std::getenv("WHARF_CHANNEL");
  if (channel == nullptr || *channel == '\0')
    return say("`" + verdict.what + "` is guarded (" + verdict.reason +
                   ") and needs approval, but WHARF_CHANNEL is not set: this shim only works "
                   "inside a wharf sandbox",
               1);
  auto client = ChannelClient::connect(channel);
  if (!client) return say("`" + verdict.what + "` did not run: " + client.error().message, 1);
  // The daemon runs the guard rules again on what it receives; the original argv goes.
  core::ChannelGuard guard{std::move(args), current_directory()};
  constexpr std::array<int, 3> kStdio{0, 1, 2};
  if (auto sent = client.value().send(guard, kStdio); !sent)
    return say("`" + verdict.what + "` did not run: " + sent.error().message, 1);
  return await_decision(client.value(), verdict);
}

}  // namespace wharf::cli
