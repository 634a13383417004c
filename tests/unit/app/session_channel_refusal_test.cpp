// The session channel's daemon side against bad clients: every malformed or oversized
// request, missing fds, a silent client and a flood of connections get an error or a
// closed connection, and the daemon goes on (fixture: session_channel_fixture.hpp).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <future>

#include "core/guard_rules.hpp"
#include "session_channel_fixture.hpp"

namespace wharf::app::testing_channel {
namespace {

TEST_F(SessionChannelTest, NotifyReachesTheOwner) {
  open_channel();
  int fd = connect_client();
  send_line(fd, R"({"type":"notify","state":"finished","message":"done"})"
                "\n");
  EXPECT_TRUE(std::holds_alternative<core::ChannelOk>(reply(fd)));
  ASSERT_TRUE(owner_.wait_for([&] { return owner_.notices.size() == 1; }));
  EXPECT_EQ(owner_.notices[0].state, core::ChannelNotifyState::finished);
  EXPECT_EQ(owner_.notices[0].message, "done");
  close(fd);
}

// Each refusal: an error line naming the problem, then the connection closes; no decision.
TEST_F(SessionChannelTest, RefusesBadRequests) {
  open_channel();
  auto refused = [&](auto send, std::string_view expected) {
    int fd = connect_client();
    send(fd);
    auto answer = reply(fd);
    ASSERT_TRUE(std::holds_alternative<core::ChannelFailure>(answer)) << expected;
    EXPECT_NE(std::get<core::ChannelFailure>(answer).message.find(expected), std::string::npos)
        << std::get<core::ChannelFailure>(answer).message;
    EXPECT_EQ(read_line(fd), "");
    close(fd);
  };
  refused([&](int fd) { send_line(fd, "{nonsense\n"); }, "not JSON");
  refused(
      [&](int fd) {
        send_line(fd, R"({"type":"launch"})"
                      "\n");
      },
      "unknown");
  refused(
      [&](int fd) {
        send_line(fd, R"({"type":"guard","argv":["git","push"],"cwd":"/"})"
                      "\n");
      },
      "exactly three fds");
  refused(
      [&](int fd) {
        int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
        send_line(fd,
                  R"({"type":"guard","argv":["git","push"],"cwd":"/"})"
                  "\n",
                  {null_fd, null_fd});
        close(null_fd);
      },
      "exactly three fds");
  Stdio a, b, c;
  refused([&](int fd) { send_guard(fd, R"(["git","status"])", a); }, "not guarded");
  refused([&](int fd) { send_guard(fd, R"(["curl","-X","POST"])", b); }, "only git and gh");
  refused([&](int fd) { send_guard(fd, R"(["git","push"])", c, "/no/such/dir"); },
          "does not exist");
  refused([&](int fd) { send_line(fd, std::string(core::kMaxChannelLineBytes + 10, 'x')); },
          "longer than 64 KiB");
  // The fds of refused requests are closed, not kept.
  EXPECT_EQ(read_to_end(a.err_read), "");
  std::lock_guard lock(owner_.mutex);
  EXPECT_TRUE(owner_.requests.empty());
}

TEST_F(SessionChannelTest, ASilentClientIsDroppedAfterTheTimeout) {
  open_channel(SessionChannelLimits{std::chrono::milliseconds(100), 8});
  int fd = connect_client();
  send_line(fd, R"({"type":"notify",)");  // and nothing more
  auto answer = reply(fd);
  ASSERT_TRUE(std::holds_alternative<core::ChannelFailure>(answer));
  EXPECT_NE(std::get<core::ChannelFailure>(answer).message.find("in time"), std::string::npos);
  close(fd);
}

TEST_F(SessionChannelTest, ConnectionsBeyondTheCapAreClosed) {
  open_channel(SessionChannelLimits{std::chrono::milliseconds(10'000), 2});
  int first = connect_client();
  int second = connect_client();
  // The channel has taken both once a third is turned away; wait for the count.
  auto until = std::chrono::steady_clock::now() + kDeadline;
  auto count = [&] {
    std::promise<std::size_t> n;
    asio::post(io_, [&] { n.set_value(channel_->connection_count()); });
    return n.get_future().get();
  };
  while (count() < 2 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  int third = connect_client();
  EXPECT_EQ(read_line(third), "");
  // The first two still work.
  send_line(first, R"({"type":"notify","state":"waiting"})"
                   "\n");
  EXPECT_TRUE(std::holds_alternative<core::ChannelOk>(reply(first)));
  for (int fd : {first, second, third}) close(fd);
}

}  // namespace
}  // namespace wharf::app::testing_channel
