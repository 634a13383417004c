// The session channel's daemon side carrying guards through their decisions: approval
// runs the real command once on the sent fds, denial and expiry run nothing, and a client
// leaving withdraws its decision (fixture: session_channel_fixture.hpp).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <future>

#include "core/guard_rules.hpp"
#include "session_channel_fixture.hpp"

namespace wharf::app::testing_channel {
namespace {

TEST_F(SessionChannelTest, ApprovedGuardRunsTheRealCommandOnceOnTheSentFds) {
  open_channel();
  int fd = connect_client();
  Stdio stdio;
  send_guard(fd, R"(["git","push","origin","main"])", stdio);
  auto pending = reply(fd);
  ASSERT_TRUE(std::holds_alternative<core::ChannelPending>(pending));
  EXPECT_EQ(std::get<core::ChannelPending>(pending).id, 41u);
  EXPECT_EQ(std::get<core::ChannelPending>(pending).expires_in_s, 600);
  {
    std::lock_guard lock(owner_.mutex);
    ASSERT_EQ(owner_.requests.size(), 1u);
    EXPECT_EQ(owner_.requests[0].what, "git push origin main");
    EXPECT_EQ(owner_.requests[0].session, 7u);
    EXPECT_EQ(owner_.requests[0].cwd, (dir_ / "work").string());
  }
  EXPECT_EQ(runs(), 0u);  // nothing runs before the person answers

  ASSERT_EQ(write(stdio.in_write, "typed\n", 6), 6);
  // Answered from another thread, as a decision desk may.
  std::thread([cb = callback(0)] {
    cb(DecisionOutcome{DecisionVerdict::approved, "phone", ""});
  }).join();
  auto approved = reply(fd);
  ASSERT_TRUE(std::holds_alternative<core::ChannelApproved>(approved));
  EXPECT_EQ(std::get<core::ChannelApproved>(approved).by, "phone");
  auto exited = reply(fd);
  ASSERT_TRUE(std::holds_alternative<core::ChannelExited>(exited));
  EXPECT_EQ(std::get<core::ChannelExited>(exited).code, 3);
  EXPECT_EQ(read_line(fd), "");  // the connection ends after the exit

  EXPECT_EQ(read_to_end(stdio.err_read),
            "ran push origin main in " + (dir_ / "work").string() + " with from-hooks\n");
  EXPECT_EQ(read_to_end(stdio.out_read), "read typed\n");
  EXPECT_EQ(runs(), 1u);
  ASSERT_TRUE(owner_.wait_for([&] { return owner_.ran.size() == 1; }));
  // A second approval of the same decision changes nothing.
  callback(0)(DecisionOutcome{DecisionVerdict::approved, "phone", ""});
  std::promise<void> barrier;  // posted after the second outcome: runs once it is handled
  asio::post(io_, [&] { barrier.set_value(); });
  barrier.get_future().wait();
  EXPECT_EQ(runs(), 1u);
  close(fd);
}

// With the real git: the push reaches a local bare repository once, and a pre-push hook
// the sandboxed program planted in the repository does not run outside the sandbox.
TEST_F(SessionChannelTest, AnApprovedRealPushArrivesOnceAndPlantedHooksDoNotRun) {
  host_path_ = "/usr/bin:/bin";
  fs::path work = dir_ / "work";
  fs::path remote = dir_ / "remote.git";
  fs::path planted = dir_ / "hook-ran";
  std::string setup = "set -e; git init -q --bare '" + remote.string() + "'; cd '" + work.string() +
                      "'; git init -q; git -c user.name=t -c user.email=t@t commit -q "
                      "--allow-empty -m one; git remote add origin '" +
                      remote.string() + "'; printf '#!/bin/sh\ntouch " + planted.string() +
                      "\n' > .git/hooks/pre-push; chmod +x .git/hooks/pre-push";
  ASSERT_EQ(std::system(("HOME=" + dir_.string() + " sh -c \"" + setup + "\"").c_str()), 0);
  open_channel();
  int fd = connect_client();
  Stdio stdio;
  send_guard(fd, R"(["git","push","origin","HEAD:refs/heads/main"])", stdio);
  ASSERT_TRUE(std::holds_alternative<core::ChannelPending>(reply(fd)));
  callback(0)(DecisionOutcome{DecisionVerdict::approved, "page", ""});
  ASSERT_TRUE(std::holds_alternative<core::ChannelApproved>(reply(fd)));
  auto exited = reply(fd);
  ASSERT_TRUE(std::holds_alternative<core::ChannelExited>(exited));
  EXPECT_EQ(std::get<core::ChannelExited>(exited).code, 0) << read_to_end(stdio.err_read);
  close(fd);
  std::string check =
      "git --git-dir='" + remote.string() + "' rev-parse --verify -q main >/dev/null";
  EXPECT_EQ(std::system(check.c_str()), 0);
  EXPECT_FALSE(fs::exists(planted));
}

TEST_F(SessionChannelTest, ACommandKilledByASignalIsReportedAsThatSignal) {
  open_channel();
  int fd = connect_client();
  Stdio stdio;
  send_guard(fd, R"(["git","http-push","url"])", stdio);
  ASSERT_TRUE(std::holds_alternative<core::ChannelPending>(reply(fd)));
  close(stdio.in_write);
  stdio.in_write = -1;
  callback(0)(DecisionOutcome{DecisionVerdict::approved, "cli", ""});
  ASSERT_TRUE(std::holds_alternative<core::ChannelApproved>(reply(fd)));
  auto exited = reply(fd);
  ASSERT_TRUE(std::holds_alternative<core::ChannelExited>(exited));
  EXPECT_EQ(std::get<core::ChannelExited>(exited).signal, SIGTERM);
  close(fd);
}

TEST_F(SessionChannelTest, TheDaemonRunsItsOwnRewriteOfTheCommand) {
  open_channel();
  int fd = connect_client();
  Stdio stdio;
  send_guard(fd, R"(["/usr/bin/gh","pr","comment","1","-b","hi"])", stdio);
  ASSERT_TRUE(std::holds_alternative<core::ChannelPending>(reply(fd)));
  callback(0)(DecisionOutcome{DecisionVerdict::approved, "page", ""});
  ASSERT_TRUE(std::holds_alternative<core::ChannelApproved>(reply(fd)));
  ASSERT_TRUE(std::holds_alternative<core::ChannelExited>(reply(fd)));
  EXPECT_EQ(read_to_end(stdio.out_read),
            "[pr][comment][1][-b][hi" + std::string(core::kDisclosureMarker) + "]\n");
  close(fd);
}

TEST_F(SessionChannelTest, DeniedAndExpiredGuardsNeverRun) {
  open_channel();
  int fd = connect_client();
  Stdio stdio;
  send_guard(fd, R"(["git","push"])", stdio);
  ASSERT_TRUE(std::holds_alternative<core::ChannelPending>(reply(fd)));
  callback(0)(DecisionOutcome{DecisionVerdict::denied, "cli", "not on Friday"});
  auto denied = reply(fd);
  ASSERT_TRUE(std::holds_alternative<core::ChannelDenied>(denied));
  EXPECT_EQ(std::get<core::ChannelDenied>(denied).by, "cli");
  EXPECT_EQ(std::get<core::ChannelDenied>(denied).note, "not on Friday");
  EXPECT_EQ(read_line(fd), "");
  close(fd);

  fd = connect_client();
  Stdio other;
  send_guard(fd, R"(["git","push"])", other);
  ASSERT_TRUE(std::holds_alternative<core::ChannelPending>(reply(fd)));
  callback(1)(DecisionOutcome{DecisionVerdict::expired, "", ""});
  EXPECT_TRUE(std::holds_alternative<core::ChannelExpired>(reply(fd)));
  close(fd);
  // Their fds were closed by the daemon: the ends the test kept see end-of-file.
  EXPECT_EQ(read_to_end(stdio.err_read), "");
  EXPECT_EQ(read_to_end(other.err_read), "");
  EXPECT_EQ(runs(), 0u);
}

TEST_F(SessionChannelTest, AClientLeavingWithdrawsItsDecision) {
  open_channel();
  int fd = connect_client();
  Stdio stdio;
  send_guard(fd, R"(["git","push"])", stdio);
  ASSERT_TRUE(std::holds_alternative<core::ChannelPending>(reply(fd)));
  close(fd);
  ASSERT_TRUE(owner_.wait_for([&] { return owner_.withdrawn.size() == 1; }));
  EXPECT_EQ(owner_.withdrawn[0], 41u);
  // An approval arriving after that runs nothing.
  callback(0)(DecisionOutcome{DecisionVerdict::approved, "late", ""});
  EXPECT_EQ(read_to_end(stdio.err_read), "");
  EXPECT_EQ(runs(), 0u);
}

TEST_F(SessionChannelTest, ClosingTheChannelWithdrawsOpenDecisions) {
  open_channel();
  int fd = connect_client();
  Stdio stdio;
  send_guard(fd, R"(["git","push"])", stdio);
  ASSERT_TRUE(std::holds_alternative<core::ChannelPending>(reply(fd)));
  std::promise<void> done;
  asio::post(io_, [&] {
    channel_.reset();
    done.set_value();
  });
  done.get_future().wait();
  ASSERT_TRUE(owner_.wait_for([&] { return owner_.withdrawn.size() == 1; }));
  EXPECT_EQ(read_line(fd), "");
  EXPECT_FALSE(fs::exists(dir_ / "channel.sock"));
  close(fd);
}

}  // namespace
}  // namespace wharf::app::testing_channel
