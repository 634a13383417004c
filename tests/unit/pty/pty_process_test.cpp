// The PTY layer against real pseudo-terminals: what the child sees, and how spawn
// failures are reported. Waits are bounded polls on conditions, never fixed sleeps.
#include "pty/pty_process.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "pty/process_tree.hpp"

namespace wharf::pty {
namespace {

// Reads the master until the child side closes (EIO) or the deadline passes.
std::string read_all(int fd, std::chrono::seconds limit = std::chrono::seconds(10)) {
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

SpawnSpec shell(std::string script) {
  return SpawnSpec{.program = "/bin/sh",
                   .argv = {"sh", "-c", std::move(script)},
                   .env = {"FOO=bar", "PATH=/usr/bin:/bin"},
                   .cwd = "/",
                   .size = {100, 30}};
}

TEST(PtyProcess, ChildSeesItsEnvironmentSizeAndDirectory) {
  auto process = PtyProcess::spawn(
      shell("echo \"env $(env | sort | tr '\\n' ' ')\"; echo \"size $(stty size)\"; "
            "echo \"cwd $(pwd)\"; exit 3"));
  ASSERT_TRUE(process) << process.error().message;
  std::string out = read_all(process.value().master_fd());
  EXPECT_EQ(wait_exit(process.value().pid()), 3);
  EXPECT_NE(out.find("env FOO=bar PATH=/usr/bin:/bin PWD=/ "), std::string::npos) << out;
  EXPECT_NE(out.find("size 30 100"), std::string::npos) << out;
  EXPECT_NE(out.find("cwd /"), std::string::npos) << out;
}

TEST(PtyProcess, ChildHoldsNoFdButItsTerminal) {
  // A pipe the parent holds without close-on-exec must not leak into the child.
  int leaky[2];
  ASSERT_EQ(pipe(leaky), 0);
  auto process = PtyProcess::spawn(SpawnSpec{
      .program = "/bin/sleep", .argv = {"sleep", "30"}, .env = {}, .cwd = "/", .size = {80, 24}});
  close(leaky[0]);
  close(leaky[1]);
  ASSERT_TRUE(process) << process.error().message;
  pid_t pid = process.value().pid();
  std::string fd_dir = "/proc/" + std::to_string(pid) + "/fd";
  // exec has happened once spawn returned (the report pipe closed), but the dynamic
  // loader may still hold a library open: wait until sleep is asleep.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    auto paren = text.rfind(')');
    if (paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'S') break;
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "sleep never went to sleep";
    std::this_thread::yield();
  }
  std::vector<std::string> seen;
  for (const auto& entry : std::filesystem::directory_iterator(fd_dir)) {
    std::string target = std::filesystem::read_symlink(entry.path()).string();
    seen.push_back(entry.path().filename().string() + " -> " + target);
    EXPECT_TRUE(target.starts_with("/dev/pts/")) << seen.back();
  }
  EXPECT_EQ(seen.size(), 3u);
  kill(pid, SIGKILL);
  wait_exit(pid);
}

TEST(PtyProcess, ChildLeadsItsOwnSessionAndProcessGroup) {
  auto process = PtyProcess::spawn(shell("read line"));
  ASSERT_TRUE(process) << process.error().message;
  pid_t pid = process.value().pid();
  EXPECT_EQ(getsid(pid), pid);
  EXPECT_EQ(getpgid(pid), pid);
  EXPECT_NE(getsid(pid), getsid(0));
  kill(pid, SIGKILL);
  EXPECT_EQ(wait_exit(pid), 128 + SIGKILL);
}

TEST(PtyProcess, ReportsAProgramThatCannotRun) {
  auto spec = shell("true");
  spec.program = "/nonexistent/wharf-no-such-shell";
  auto process = PtyProcess::spawn(spec);
  ASSERT_FALSE(process);
  EXPECT_NE(process.error().message.find("cannot run /nonexistent/wharf-no-such-shell"),
            std::string::npos);
  EXPECT_NE(process.error().message.find("No such file"), std::string::npos);
}

TEST(PtyProcess, ReportsADirectoryThatCannotBeEntered) {
  auto spec = shell("true");
  spec.cwd = "/nonexistent-wharf-dir";
  auto process = PtyProcess::spawn(spec);
  ASSERT_FALSE(process);
  EXPECT_NE(process.error().message.find("/nonexistent-wharf-dir"), std::string::npos);
}

TEST(PtyProcess, ResizeReachesTheTerminal) {
  auto process = PtyProcess::spawn(shell("read line; stty size"));
  ASSERT_TRUE(process) << process.error().message;
  int fd = process.value().master_fd();
  ASSERT_TRUE(PtyProcess::resize(fd, {132, 43}));
  ASSERT_EQ(write(fd, "\n", 1), 1);
  std::string out = read_all(fd);
  EXPECT_NE(out.find("43 132"), std::string::npos) << out;
  wait_exit(process.value().pid());
}

TEST(ProcessTree, FindsAndEndsBackgroundJobsOfTheSession) {
  auto process = PtyProcess::spawn(shell("sleep 1000 & sleep 1001 & echo started; wait"));
  ASSERT_TRUE(process) << process.error().message;
  pid_t pid = process.value().pid();
  int fd = process.value().master_fd();
  // Poll until both sleeps are members of the session.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (session_members(pid).size() < 3 && std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 20) > 0) {
      char buf[256];
      if (read(fd, buf, sizeof buf) <= 0) break;
    }
  }
  ASSERT_GE(session_members(pid).size(), 3u);
  EXPECT_GE(signal_session(pid, SIGKILL), 3u);
  EXPECT_EQ(wait_exit(pid), 128 + SIGKILL);
  while (!session_members(pid).empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  EXPECT_TRUE(session_members(pid).empty());
}

}  // namespace
}  // namespace wharf::pty
