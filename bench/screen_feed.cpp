// screen_feed: how fast core::Screen (wharf's terminal engine) takes
// a program's output, with no PTY or socket in the way; figures only (see
// docs/performance.md). Each benchmark feeds a buffer in 4 KiB pieces, as PTY reads
// arrive, and reports MB/s (bytes_per_second, 2^20-byte MiB/s in Google Benchmark's
// own units; the "MB/s" counter is 10^6 bytes).
//
//   ScreenFeed/fold/<cols>/<rows>:  100 MB of `fold -w 99` lines per run (99 'x' and
//                                   CR LF, as a PTY with ONLCR delivers them)
//   ScreenFeed/tui/<cols>/<rows>:   a recorded TUI (tests/fixtures/screens/agents/
//                                   opencode-commands-100x30.bin) fed over and over
//   LibvtermScreen/fold, /tui:      the same input into libvterm 0.1.4's own screen layer
//                                   (each scrolled-off line copied out as text), the engine
//                                   wharf used before, for comparison
//
//   wharf_bench_screen_feed --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <vterm.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "core/screen.hpp"
#include "core/utf8.hpp"

namespace {

constexpr std::size_t kChunk = 4096;
constexpr std::size_t kFoldBytes = 100'000'000;

std::string fold_lines(std::size_t bytes) {
  std::string line(99, 'x');
  line += "\r\n";
  std::string out;
  out.reserve(bytes + line.size());
  while (out.size() < bytes) out += line;
  return out;
}

const std::string& fold_buffer() {
  static const std::string buffer = fold_lines(4 << 20);  // repeated to make 100 MB
  return buffer;
}

const std::string& tui_buffer() {
  static const std::string buffer = [] {
    std::ifstream in(WHARF_FIXTURES_DIR "/screens/agents/opencode-commands-100x30.bin",
                     std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }();
  return buffer;
}

template <class Feed>
std::size_t feed_total(const std::string& buffer, std::size_t total, Feed&& feed) {
  std::size_t fed = 0;
  while (fed < total) {
    for (std::size_t at = 0; at < buffer.size() && fed < total; at += kChunk) {
      std::string_view piece = std::string_view(buffer).substr(at, kChunk);
      feed(piece);
      fed += piece.size();
    }
  }
  return fed;
}

void report(benchmark::State& state, std::size_t bytes) {
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.counters["MB/s"] =
      benchmark::Counter(static_cast<double>(bytes) / 1e6, benchmark::Counter::kIsRate);
}

wharf::core::TerminalSize size_of(const benchmark::State& state) {
  return wharf::core::TerminalSize{static_cast<std::uint16_t>(state.range(0)),
                                   static_cast<std::uint16_t>(state.range(1))};
}

void screen_fold(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    wharf::core::Screen screen(size_of(state));
    bytes +=
        feed_total(fold_buffer(), kFoldBytes, [&](std::string_view piece) { screen.feed(piece); });
    benchmark::DoNotOptimize(screen.bytes_fed());
  }
  report(state, bytes);
}
BENCHMARK(screen_fold)
    ->Name("ScreenFeed/fold")
    ->Args({80, 24})
    ->Args({200, 50})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

void screen_tui(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    wharf::core::Screen screen(size_of(state));
    bytes +=
        feed_total(tui_buffer(), 20'000'000, [&](std::string_view piece) { screen.feed(piece); });
    benchmark::DoNotOptimize(screen.bytes_fed());
  }
  report(state, bytes);
}
BENCHMARK(screen_tui)
    ->Name("ScreenFeed/tui")
    ->Args({100, 30})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// libvterm's screen layer, as Screen drove it before (its push-line rendering included).
struct LegacyScreen {
  explicit LegacyScreen(int rows, int cols) {
    vt = vterm_new(rows, cols);
    vterm_set_utf8(vt, 1);
    screen = vterm_obtain_screen(vt);
    vterm_screen_set_callbacks(screen, &kCallbacks, this);
    vterm_screen_enable_altscreen(screen, 1);
    vterm_screen_reset(screen, 1);
  }
  ~LegacyScreen() { vterm_free(vt); }
  LegacyScreen(const LegacyScreen&) = delete;
  LegacyScreen& operator=(const LegacyScreen&) = delete;

  static int push_line(int cols, const VTermScreenCell* cells, void* user) {
    auto* self = static_cast<LegacyScreen*>(user);
    self->last_line.clear();
    for (int col = 0; col < cols; ++col)
      for (int i = 0; i < VTERM_MAX_CHARS_PER_CELL && cells[col].chars[i] != 0; ++i)
        wharf::core::append_utf8(self->last_line, cells[col].chars[i]);
    ++self->lines;
    return 1;
  }
  static constexpr VTermScreenCallbacks kCallbacks = {
      .damage = nullptr,
      .moverect = nullptr,
      .movecursor = nullptr,
      .settermprop = nullptr,
      .bell = nullptr,
      .resize = nullptr,
      .sb_pushline = push_line,
      .sb_popline = nullptr,
  };

  VTerm* vt = nullptr;
  VTermScreen* screen = nullptr;
  std::string last_line;
  std::size_t lines = 0;
};

void libvterm_fold(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    LegacyScreen legacy(static_cast<int>(state.range(1)), static_cast<int>(state.range(0)));
    bytes += feed_total(fold_buffer(), kFoldBytes / 4, [&](std::string_view piece) {
      vterm_input_write(legacy.vt, piece.data(), piece.size());
    });
    benchmark::DoNotOptimize(legacy.lines);
  }
  report(state, bytes);
}
BENCHMARK(libvterm_fold)
    ->Name("LibvtermScreen/fold")
    ->Args({80, 24})
    ->Args({200, 50})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

void libvterm_tui(benchmark::State& state) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    LegacyScreen legacy(static_cast<int>(state.range(1)), static_cast<int>(state.range(0)));
    bytes += feed_total(tui_buffer(), 5'000'000, [&](std::string_view piece) {
      vterm_input_write(legacy.vt, piece.data(), piece.size());
    });
    benchmark::DoNotOptimize(legacy.lines);
  }
  report(state, bytes);
}
BENCHMARK(libvterm_tui)
    ->Name("LibvtermScreen/tui")
    ->Args({100, 30})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
