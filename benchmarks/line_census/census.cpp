// The census of the lines the model's events touch (line_census.h): the
// scheduler's marks, the accesses the compiler reports (access_hooks.cpp),
// and the report, on stderr after the last window counted. Set by the
// environment: FABRICSIM_LINES_FROM (a time in ps, or with us/ns: the first
// window counted starts at or after it; default 0) and
// FABRICSIM_LINES_WINDOWS (how many windows; default 50). One thread only.
#include "benchmarks/line_census/census.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "benchmarks/line_census/code_owner.h"
#include "benchmarks/line_census/line_set.h"
#include "model/core/line_census.h"

namespace fabric::line_census {

namespace {

constexpr int kLineShift = 6;  // 64 B lines

struct Counts {
  uint64_t lines = 0;
  std::array<uint64_t, kOwners> by_owner{};
  void add(const Counts& o) {
    lines += o.lines;
    for (size_t i = 0; i < kOwners; ++i) by_owner[i] += o.by_owner[i];
  }
};

Picos time_of(const char* text, Picos otherwise) {
  if (!text || !*text) return otherwise;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  const std::string unit = end ? end : "";
  const double scale = unit == "us" ? 1e6 : unit == "ns" ? 1e3 : unit == "ms" ? 1e9 : 1;
  return static_cast<Picos>(v * scale);
}

struct State {
  Picos from = time_of(std::getenv("FABRICSIM_LINES_FROM"), 0);
  long windows_wanted = std::max(1L, std::atol(std::getenv("FABRICSIM_LINES_WINDOWS") ?: "50"));
  LineSet turn_lines{18}, window_lines{20};
  bool measuring = false, in_turn = false, reported = false;
  Counts turn, window;
  // Over the windows counted.
  long windows = 0;
  Picos first_start = -1, length = 0;
  size_t queues = 0;
  Counts window_sum, turn_sum;
  uint64_t window_max = 0, turn_max = 0, turns = 0, events = 0, events_in_turn = 0, turn_start_served = 0;
  uintptr_t stack_low = 0, stack_high = 0;
};

State& state() {
  static State s;
  return s;
}

double mib(uint64_t lines) { return static_cast<double>(lines << kLineShift) / (1 << 20); }

void print_owners(const Counts& sum, uint64_t of) {
  for (size_t i = 0; i < kOwners; ++i)
    if (sum.by_owner[i] > 0)
      std::fprintf(stderr, "      %-22s %5.1f %%\n", std::string(kOwnerNames[i]).c_str(),
                   of ? 100.0 * static_cast<double>(sum.by_owner[i]) / static_cast<double>(of) : 0.0);
}

void report(const State& s) {
  const double windows = static_cast<double>(s.windows);
  const double turns = static_cast<double>(std::max<uint64_t>(s.turns, 1));
  std::fprintf(stderr,
               "line census (issue 56): %ld windows of %.0f ns from %.3f us, %zu partitions, 64 B lines, counted "
               "by the code that touched them first\n",
               s.windows, s.length / 1e3, s.first_start / 1e6, s.queues);
  std::fprintf(stderr, "  caches (sysconf): L1d %ld KiB, L2 %ld KiB, L3 %ld KiB\n",
               sysconf(_SC_LEVEL1_DCACHE_SIZE) / 1024, sysconf(_SC_LEVEL2_CACHE_SIZE) / 1024,
               sysconf(_SC_LEVEL3_CACHE_SIZE) / 1024);
  std::fprintf(stderr, "  events served: %.0f a window; distinct lines per event in its partition's turn: %.1f\n",
               s.events / windows, static_cast<double>(s.turn_sum.lines) / std::max<double>(s.events, 1));
  std::fprintf(stderr, "  a window, all partitions: %.0f lines (%.2f MiB) mean, %lu (%.2f MiB) max\n",
               s.window_sum.lines / windows, mib(s.window_sum.lines) / windows,
               static_cast<unsigned long>(s.window_max), mib(s.window_max));
  print_owners(s.window_sum, s.window_sum.lines);
  std::fprintf(stderr,
               "  a partition's turn (with events): %.0f lines (%.1f KiB) mean, %lu (%.1f KiB) max, %.0f turns "
               "a window\n",
               s.turn_sum.lines / turns, mib(s.turn_sum.lines) * 1024 / turns, static_cast<unsigned long>(s.turn_max),
               mib(s.turn_max) * 1024, turns / windows);
  print_owners(s.turn_sum, s.turn_sum.lines);
  std::fprintf(stderr,
               "LINE_CENSUS windows=%ld partitions=%zu events_per_window=%.1f window_lines=%.1f window_lines_max=%lu "
               "turn_lines=%.1f turn_lines_max=%lu turns_per_window=%.1f lines_per_event=%.2f\n",
               s.windows, s.queues, s.events / windows, s.window_sum.lines / windows,
               static_cast<unsigned long>(s.window_max), s.turn_sum.lines / turns,
               static_cast<unsigned long>(s.turn_max), turns / windows,
               static_cast<double>(s.turn_sum.lines) / std::max<double>(s.events, 1));
}

}  // namespace

void touch(uintptr_t address, size_t size, const void* pc) {
  State& s = state();
  if (!s.measuring) return;
  const Owner owner = address >= s.stack_low && address < s.stack_high ? Owner::kStack : owner_of_code(pc);
  const uint64_t last = (address + std::max<size_t>(size, 1) - 1) >> kLineShift;
  for (uint64_t line = address >> kLineShift; line <= last; ++line) {
    if (s.in_turn && s.turn_lines.insert(line)) {
      ++s.turn.lines;
      ++s.turn.by_owner[static_cast<size_t>(owner)];
    }
    if (s.window_lines.insert(line)) {
      ++s.window.lines;
      ++s.window.by_owner[static_cast<size_t>(owner)];
    }
  }
}

void window_begin(Picos start, Picos end) {
  State& s = state();
  s.measuring = !s.reported && start >= s.from;
  if (!s.measuring) return;
  if (s.first_start < 0) {
    s.first_start = start;
    std::atexit([] {  // a run that ends before the windows asked for: what it counted
      if (!state().reported && state().windows > 0) report(state());
    });
  }
  s.length = end - start;
  s.window_lines.clear();
  s.window = {};
  // The SystemC thread's stack, about where the scheduler stands (8 MiB below).
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  s.stack_low = here - (8u << 20);
  s.stack_high = here + (1u << 20);
}

void queue_begin(size_t queue, uint64_t served_before) {
  State& s = state();
  if (!s.measuring) return;
  s.queues = std::max(s.queues, queue + 1);
  s.in_turn = true;
  s.turn_lines.clear();
  s.turn = {};
  s.turn_start_served = served_before;
}

void queue_end(uint64_t served_after) {
  State& s = state();
  if (!s.measuring) return;
  s.in_turn = false;
  const uint64_t events = served_after - s.turn_start_served;
  if (events == 0) return;  // a partition with nothing due: no turn
  s.events += events;
  ++s.turns;
  s.turn_sum.add(s.turn);
  s.turn_max = std::max(s.turn_max, s.turn.lines);
}

void window_end() {
  State& s = state();
  if (!s.measuring) return;
  s.measuring = false;
  ++s.windows;
  s.window_sum.add(s.window);
  s.window_max = std::max(s.window_max, s.window.lines);
  if (s.windows >= s.windows_wanted) {
    s.reported = true;
    report(s);
  }
}

}  // namespace fabric::line_census
