// pty_drain: the bare-PTY baseline the relay benchmark (bench/relay.mjs) compares wharf
// against. No project code, no event loop: just the kernel PTY and one blocking reader.
//
//   pty_drain [--cols C] [--rows R] [--read-size BYTES] [--] COMMAND [ARGS...]
//       Starts COMMAND on a new PTY (forkpty), reads the master with blocking reads of
//       64 KiB (by default) until EOF/EIO, and prints one JSON line:
//       {"mode":"drain","bytes":N,"seconds":S,"mb_per_s":X,"reads":R,"avg_read":A}
//       (MB = 10^6 bytes). The clock starts just before the fork.
//
//   pty_drain --echo N [--warmup W] [--cols C] [--rows R] [--] COMMAND [ARGS...]
//       Starts COMMAND (for a clean kernel echo: `cat`, which leaves the line discipline
//       in canonical mode with ECHO; or `bash --norc -i` for readline), waits until it is
//       quiet, then N times: writes one byte to the master and times until its whole echo
//       has been read back. Samples alternate between 'x' (echo "x") and DEL, so the line
//       never grows (echo "\b \b" from the line discipline with ECHOE, "\b\e[K" from
//       readline, "^?" without ECHOE). Prints {"mode":"echo","samples":N,"p50_ms":..,"p90_ms":..,
//       "p99_ms":..,"max_ms":..,"mean_ms":..}. The first W samples (default 20) are
//       discarded as warm-up.
//
// It prints figures only; it never judges them.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  unsigned short cols = 80;
  unsigned short rows = 24;
  std::size_t read_size = 64 * 1024;
  long echo_samples = 0;  // 0: drain mode
  long warmup = 20;
  std::vector<char*> command;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "pty_drain: %s\n"
               "usage: pty_drain [--cols C] [--rows R] [--read-size B] [--] COMMAND [ARGS...]\n"
               "       pty_drain --echo N [--warmup W] [--] COMMAND [ARGS...]\n",
               why);
  std::exit(2);
}

long parse_number(const char* text, long min, long max) {
  char* end = nullptr;
  errno = 0;
  long value = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < min || value > max) usage("bad number");
  return value;
}

Options parse(int argc, char** argv) {
  Options o;
  int i = 1;
  for (; i < argc; ++i) {
    std::string_view a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) usage("missing value");
      return argv[++i];
    };
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "--cols")
      o.cols = static_cast<unsigned short>(parse_number(next(), 1, 1000));
    else if (a == "--rows")
      o.rows = static_cast<unsigned short>(parse_number(next(), 1, 1000));
    else if (a == "--read-size")
      o.read_size = static_cast<std::size_t>(parse_number(next(), 1, 16L << 20));
    else if (a == "--echo")
      o.echo_samples = parse_number(next(), 1, 1000000);
    else if (a == "--warmup")
      o.warmup = parse_number(next(), 0, 1000000);
    else if (a.starts_with("--"))
      usage("unknown option");
    else
      break;
  }
  for (; i < argc; ++i) o.command.push_back(argv[i]);
  if (o.command.empty()) usage("no command");
  o.command.push_back(nullptr);
  return o;
}

pid_t spawn(const Options& o, int& master) {
  winsize ws{};
  ws.ws_col = o.cols;
  ws.ws_row = o.rows;
  pid_t pid = forkpty(&master, nullptr, nullptr, &ws);
  if (pid < 0) {
    std::perror("forkpty");
    std::exit(1);
  }
  if (pid == 0) {
    signal(SIGPIPE, SIG_DFL);
    execvp(o.command[0], o.command.data());
    std::perror("execvp");
    _exit(127);
  }
  return pid;
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

int drain(const Options& o) {
  std::vector<char> buffer(o.read_size);
  int master = -1;
  auto t0 = Clock::now();
  pid_t pid = spawn(o, master);
  unsigned long long bytes = 0;
  unsigned long long reads = 0;
  for (;;) {
    ssize_t n = read(master, buffer.data(), buffer.size());
    if (n > 0) {
      bytes += static_cast<unsigned long long>(n);
      ++reads;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;  // 0 (EOF) or EIO: every process let go of the terminal
  }
  double secs = seconds_since(t0);
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  double mb = static_cast<double>(bytes) / 1e6;
  std::printf(
      "{\"mode\":\"drain\",\"bytes\":%llu,\"seconds\":%.6f,\"mb_per_s\":%.3f,\"reads\":%llu,"
      "\"avg_read\":%.1f,\"exit\":%d}\n",
      bytes, secs, secs > 0 ? mb / secs : 0.0, reads,
      reads ? static_cast<double>(bytes) / static_cast<double>(reads) : 0.0,
      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return 0;
}

// Reads whatever is available within `timeout_ms`; returns bytes read (0 on timeout).
ssize_t read_some(int fd, std::string& into, int timeout_ms) {
  pollfd p{fd, POLLIN, 0};
  int r = poll(&p, 1, timeout_ms);
  if (r <= 0) return 0;
  char buf[4096];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n > 0) into.append(buf, static_cast<std::size_t>(n));
  return n;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  // Nearest rank.
  auto rank = static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size()) + 0.999999);
  rank = std::clamp<std::size_t>(rank, 1, v.size());
  return v[rank - 1];
}

int echo(const Options& o) {
  int master = -1;
  pid_t pid = spawn(o, master);
  // Let the program start and print whatever it prints first.
  std::string sink;
  for (;;) {
    sink.clear();
    if (read_some(master, sink, 300) <= 0) break;
  }
  // The echo of DEL is complete once it ends with one of these.
  auto erase_done = [](std::string_view got) {
    return got.ends_with("\b \b") || got.ends_with("\x1b[K") || got.ends_with("^?");
  };
  std::vector<double> samples;
  long total = o.echo_samples + o.warmup;
  for (long i = 0; i < total; ++i) {
    const bool del = (i % 2) == 1;
    const char byte = del ? '\x7f' : 'x';
    std::string got;
    auto t0 = Clock::now();
    if (write(master, &byte, 1) != 1) {
      std::perror("write");
      return 1;
    }
    while (del ? !erase_done(got) : got.find('x') == std::string::npos) {
      if (read_some(master, got, 2000) <= 0) {
        std::fprintf(stderr, "pty_drain: no echo within 2 s (got %zu bytes)\n", got.size());
        return 1;
      }
    }
    double ms = seconds_since(t0) * 1000.0;
    if (i >= o.warmup) samples.push_back(ms);
  }
  double sum = 0;
  for (double s : samples) sum += s;
  std::printf(
      "{\"mode\":\"echo\",\"samples\":%zu,\"p50_ms\":%.4f,\"p90_ms\":%.4f,\"p99_ms\":%.4f,"
      "\"max_ms\":%.4f,\"mean_ms\":%.4f}\n",
      samples.size(), percentile(samples, 50), percentile(samples, 90), percentile(samples, 99),
      percentile(samples, 100), samples.empty() ? 0.0 : sum / static_cast<double>(samples.size()));
  kill(pid, SIGHUP);
  close(master);
  waitpid(pid, nullptr, 0);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  return o.echo_samples > 0 ? echo(o) : drain(o);
}
