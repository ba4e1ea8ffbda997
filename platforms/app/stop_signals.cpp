#include "platforms/app/stop_signals.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <initializer_list>

#include "model/core/stop_request.h"

namespace fabric {
namespace {

std::atomic<int> g_phase{static_cast<int>(RunPhase::starting)};
std::atomic<int> g_signal{0};

void say(const char* text) {
  // write(2) is async-signal-safe; a short write leaves the message short.
  [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, text, std::strlen(text));
}

extern "C" void on_stop_signal(int number) {
  const bool again = g_signal.exchange(number) != 0;
  if (g_phase.load() == static_cast<int>(RunPhase::starting)) {
    say("\nfabricsim: stopped before the run started; nothing was recorded\n");
    _exit(128 + number);
  }
  if (again) {
    say("\nfabricsim: stopping at once; the next fabricsim to open the database marks this run interrupted\n");
    _exit(128 + number);
  }
  StopRequest::raise();
}

}  // namespace

void install_stop_signals() {
  StopRequest::clear();
  g_signal.store(0);
  struct sigaction action = {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  for (int number : {SIGINT, SIGTERM, SIGHUP}) sigaction(number, &action, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  // Past the file size limit (ulimit -f) a write then fails with EFBIG,
  // which the recorder reports, instead of ending the process unsaid.
  std::signal(SIGXFSZ, SIG_IGN);
}

void set_run_phase(RunPhase phase) { g_phase.store(static_cast<int>(phase)); }

int stop_signal() { return g_signal.load(); }

int stopped_exit_status() { return 128 + (stop_signal() ? stop_signal() : SIGINT); }

}  // namespace fabric
