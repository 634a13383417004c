#include "pty/guarded_run.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <string>

namespace wharf::pty {
namespace {

std::string read_all(int fd) {
  std::string out;
  char chunk[256];
  for (ssize_t n; (n = read(fd, chunk, sizeof chunk)) > 0;)
    out.append(chunk, static_cast<std::size_t>(n));
  return out;
}

struct Ran {
  std::optional<core::ExitStatus> status;
  std::string out;
};

Ran run(const std::string& script, const std::string& cwd = "/tmp") {
  int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
  int out[2];
  EXPECT_EQ(pipe2(out, O_CLOEXEC), 0);
  GuardedCommand command{
      "/bin/sh", {"sh", "-c", script}, {"GREETING=hi"}, cwd, {in, out[1], out[1]}};
  auto started = spawn_guarded(command);
  close(in);
  close(out[1]);
  EXPECT_TRUE(started.ok());
  Ran ran;
  if (!started.ok()) return ran;
  ran.out = read_all(out[0]);
  close(out[0]);
  ran.status = decode_guarded_status(read_all(started.value().status_fd));
  close(started.value().status_fd);
  waitpid(started.value().runner, nullptr, 0);
  return ran;
}

TEST(GuardedRun, RunsWithTheGivenFdsEnvironmentAndDirectory) {
  auto ran = run("echo \"$GREETING from $(pwd)\"; exit 3", "/");
  ASSERT_TRUE(ran.status);
  EXPECT_EQ(ran.status->code, 3);
  EXPECT_EQ(ran.out, "hi from /\n");
}

TEST(GuardedRun, ReportsASignal) {
  auto ran = run("kill -KILL $$");
  ASSERT_TRUE(ran.status);
  EXPECT_EQ(ran.status->signal, SIGKILL);
}

TEST(GuardedRun, AMissingDirectoryFailsWithAMessage) {
  auto ran = run("exit 0", "/no/such/dir");
  ASSERT_TRUE(ran.status);
  EXPECT_EQ(ran.status->code, 127);
  EXPECT_NE(ran.out.find("cannot enter /no/such/dir"), std::string::npos);
}

TEST(GuardedRun, RefusesMissingFds) {
  GuardedCommand command{"/bin/true", {"true"}, {}, "/", {-1, -1, -1}};
  EXPECT_FALSE(spawn_guarded(command).ok());
}

TEST(GuardedRun, DecodesOnlyAWholeStatus) {
  EXPECT_FALSE(decode_guarded_status(""));
  EXPECT_FALSE(decode_guarded_status("ab"));
}

TEST(GuardedRun, FindsProgramsOnAbsolutePathEntriesOnly) {
  EXPECT_EQ(find_on_path("sh", "relative:/nonexistent:/bin"), "/bin/sh");
  EXPECT_FALSE(find_on_path("sh", "bin:."));
  EXPECT_FALSE(find_on_path("../bin/sh", "/bin"));
  EXPECT_FALSE(find_on_path("no-such-program-here", "/bin:/usr/bin"));
}

}  // namespace
}  // namespace wharf::pty
