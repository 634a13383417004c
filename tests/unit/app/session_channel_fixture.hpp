// The fixture of the session channel's tests (session_channel_test.cpp,
// session_channel_refusal_test.cpp): a real socket, real fds and real processes. A fake
// owner stands in for the decision desk, and a fake `git` (a shell script found on the
// PATH the hooks give) stands in for the real one, recording every run.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "app/session_channel.hpp"
#include "core/guard_rules.hpp"

namespace wharf::app::testing_channel {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr auto kDeadline = 10s;

struct FakeOwner {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<GuardRequest> requests;
  std::vector<DecisionCallback> callbacks;
  std::vector<std::uint64_t> withdrawn;
  std::vector<core::ChannelNotify> notices;
  std::vector<core::ExitStatus> ran;

  template <class Pred>
  bool wait_for(Pred pred) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, kDeadline, pred);
  }
};

class SessionChannelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("wharf-channel-" + std::to_string(getpid()) + "-" + std::to_string(counter_++));
    fs::create_directories(dir_ / "bin");
    fs::create_directories(dir_ / "work");
    // The fake git: says what it got on stderr, records the run, and exits as told.
    write_program("git", R"(#!/bin/sh
echo "ran $* in $(pwd) with $WHARF_TEST_VAR" >&2
echo run >> ")" + (dir_ / "runs").string() +
                             R"("
read line && echo "read $line"
case "$1" in push) exit 3 ;; http-push) kill -TERM $$ ;; esac
exit 0
)");
    write_program("gh", R"(#!/bin/sh
for a in "$@"; do printf '[%s]' "$a"; done
echo
)");
  }

  void TearDown() override {
    if (channel_) {
      std::promise<void> done;
      asio::post(io_, [&] {
        channel_.reset();
        done.set_value();
      });
      done.get_future().wait();
    }
    work_.reset();
    io_.stop();
    if (thread_.joinable()) thread_.join();
    fs::remove_all(dir_);
  }

  void write_program(const std::string& name, const std::string& text) {
    fs::path path = dir_ / "bin" / name;
    std::ofstream(path) << text;
    fs::permissions(path, fs::perms::owner_all);
  }

  void open_channel(SessionChannelLimits limits = {}) {
    SessionChannelHooks hooks;
    hooks.notify = [this](const core::ChannelNotify& n) {
      std::lock_guard lock(owner_.mutex);
      owner_.notices.push_back(n);
      owner_.changed.notify_all();
    };
    hooks.open_decision = [this](const GuardRequest& request,
                                 DecisionCallback decided) -> core::Result<DecisionTicket> {
      std::lock_guard lock(owner_.mutex);
      owner_.requests.push_back(request);
      owner_.callbacks.push_back(std::move(decided));
      owner_.changed.notify_all();
      return DecisionTicket{owner_.requests.size() + 40, 600};
    };
    hooks.withdraw_decision = [this](std::uint64_t id) {
      std::lock_guard lock(owner_.mutex);
      owner_.withdrawn.push_back(id);
      owner_.changed.notify_all();
    };
    hooks.host_path = [this] { return host_path_; };
    hooks.environment = [this] {
      return std::vector<std::string>{"PATH=" + (dir_ / "bin").string() + ":/usr/bin:/bin",
                                      "WHARF_TEST_VAR=from-hooks"};
    };
    hooks.ran = [this](const GuardRequest&, std::uint64_t, core::ExitStatus status) {
      std::lock_guard lock(owner_.mutex);
      owner_.ran.push_back(status);
      owner_.changed.notify_all();
    };
    auto opened = SessionChannel::open(io_.get_executor(), dir_ / "channel.sock", 7,
                                       std::move(hooks), limits);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    channel_ = std::move(opened.value());
    thread_ = std::thread([this] { io_.run(); });
  }

  int connect_client() {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::string path = (dir_ / "channel.sock").string();
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    return fd;
  }

  static void send_line(int fd, const std::string& line, std::vector<int> fds = {}) {
    iovec iov{const_cast<char*>(line.data()), line.size()};
    msghdr message{};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    std::vector<char> control;
    if (!fds.empty()) {
      control.assign(CMSG_SPACE(sizeof(int) * fds.size()), 0);
      message.msg_control = control.data();
      message.msg_controllen = control.size();
      cmsghdr* header = CMSG_FIRSTHDR(&message);
      header->cmsg_level = SOL_SOCKET;
      header->cmsg_type = SCM_RIGHTS;
      header->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(header), fds.data(), sizeof(int) * fds.size());
    }
    ASSERT_EQ(sendmsg(fd, &message, MSG_NOSIGNAL), static_cast<ssize_t>(line.size()));
  }

  // Everything the fd yields until end-of-file (or the deadline).
  static std::string read_to_end(int fd) {
    std::string out;
    auto until = std::chrono::steady_clock::now() + kDeadline;
    while (std::chrono::steady_clock::now() < until) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char chunk[4096];
      ssize_t n = read(fd, chunk, sizeof chunk);
      if (n <= 0) break;
      out.append(chunk, static_cast<std::size_t>(n));
    }
    return out;
  }

  // One line from the channel, or "" at end-of-file.
  std::string read_line(int fd) {
    auto until = std::chrono::steady_clock::now() + kDeadline;
    while (std::chrono::steady_clock::now() < until) {
      std::size_t newline = pending_.find('\n');
      if (newline != std::string::npos) {
        std::string line = pending_.substr(0, newline + 1);
        pending_.erase(0, newline + 1);
        return line;
      }
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char chunk[4096];
      ssize_t n = read(fd, chunk, sizeof chunk);
      if (n <= 0) return "";
      pending_.append(chunk, static_cast<std::size_t>(n));
    }
    return "timeout";
  }

  core::ChannelReply reply(int fd) {
    std::string line = read_line(fd);
    auto parsed = core::parse_channel_reply(line);
    EXPECT_TRUE(parsed.ok()) << line;
    return parsed.ok() ? parsed.value() : core::ChannelReply(core::ChannelFailure{"unparsed"});
  }

  // A guard request with pipes for stdin, stdout and stderr; the test keeps their other
  // ends (stdin's write end, stdout's and stderr's read ends).
  struct Stdio {
    int in_write = -1, out_read = -1, err_read = -1;
    ~Stdio() {
      for (int fd : {in_write, out_read, err_read})
        if (fd >= 0) close(fd);
    }
  };
  void send_guard(int fd, const std::string& argv_json, Stdio& stdio, std::string cwd = {}) {
    int in[2], out[2], err[2];
    ASSERT_EQ(pipe2(in, O_CLOEXEC), 0);
    ASSERT_EQ(pipe2(out, O_CLOEXEC), 0);
    ASSERT_EQ(pipe2(err, O_CLOEXEC), 0);
    if (cwd.empty()) cwd = (dir_ / "work").string();
    send_line(fd, R"({"type":"guard","argv":)" + argv_json + R"(,"cwd":")" + cwd + "\"}\n",
              {in[0], out[1], err[1]});
    close(in[0]);
    close(out[1]);
    close(err[1]);
    stdio.in_write = in[1];
    stdio.out_read = out[0];
    stdio.err_read = err[0];
  }

  DecisionCallback callback(std::size_t index) {
    EXPECT_TRUE(owner_.wait_for([&] { return owner_.callbacks.size() > index; }));
    std::lock_guard lock(owner_.mutex);
    return owner_.callbacks.at(index);
  }

  std::size_t runs() {
    std::ifstream in(dir_ / "runs");
    std::size_t lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    return lines;
  }

  static inline int counter_ = 0;
  fs::path dir_;
  asio::io_context io_;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_{
      io_.get_executor()};
  std::thread thread_;
  std::unique_ptr<SessionChannel> channel_;
  FakeOwner owner_;
  std::string pending_;
  std::string host_path_;  // empty: the environment's PATH (with the fake git first)
};

}  // namespace wharf::app::testing_channel
