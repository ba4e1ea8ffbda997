#pragma once
// Helpers for the integration tests: run the fabricsim executable as a
// subprocess (stdout and stderr captured through temp files), throw-away
// directories, and SQL on the result database through the SQLite C API.
#include <sqlite3.h>
#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fabricsim_it {

// A fresh directory from mkdtemp under /tmp, removed with its contents on
// destruction (kept when FABRICSIM_IT_KEEP is set, for debugging).
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Command line for fabricsim; --quiet is always added by run_fabricsim.
struct Args {
  std::vector<std::string> v;
  Args& set(const std::string& key_value) {
    v.push_back("--set");
    v.push_back(key_value);
    return *this;
  }
  Args& opt(const std::string& name) {
    v.push_back(name);
    return *this;
  }
  Args& opt(const std::string& name, const std::string& value) {
    v.push_back(name);
    v.push_back(value);
    return *this;
  }
};

// 2-leaf fabric (1 rack, leaves 0 and 1; user ports 0..9) on study perm640.
Args two_leaf();
// 2-leaf shift-5 permutation: every port sends to the port on the other leaf.
Args two_leaf_shift();
// An INI file in `dir` with the 2-leaf topology and no traffic; running with
// --config on it does not load the default study.
std::string write_two_leaf_ini(const TempDir& dir);

struct ProcResult {
  bool exited = false;     // terminated by exit(), not a signal
  int exit_code = -1;      // WEXITSTATUS when exited
  int term_signal = 0;     // WTERMSIG otherwise
  bool timed_out = false;  // killed by the harness after the timeout
  double wall_seconds = 0;
  std::string out, err;
  std::string describe() const;  // for failure messages
};

// Runs FABRICSIM_BINARY --quiet <args> and waits (killing it after timeout).
ProcResult run_fabricsim(const Args& args, double timeout_seconds = 60);

// Background run: starts the process, whose output goes to files in `dir`.
struct Background {
  pid_t pid = -1;
  std::string out_path, err_path;
  double start = 0;
};
Background start_fabricsim(const Args& args, const TempDir& dir);
ProcResult wait_fabricsim(const Background& bg, double timeout_seconds = 60);
// Adds a test failure for a SystemC warning in the output (run_fabricsim
// and wait_fabricsim check every run with it).
void fail_on_systemc_warnings(const ProcResult& r);

double now_seconds();  // monotonic
std::string read_text(const std::string& path);
bool file_exists(const std::string& path);
void copy_file(const std::string& from, const std::string& to);

// A connection to a result database (read-write, never created: opening a
// missing file throws). Every call throws std::runtime_error on SQL errors.
class Db {
 public:
  explicit Db(const std::string& path);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  sqlite3* handle() { return db_; }
  void exec(const std::string& sql);
  // Rows as strings; NULL appears as "NULL".
  std::vector<std::vector<std::string>> rows(const std::string& sql);
  // Every row as "a|b|c\n": for comparing whole results.
  std::string dump(const std::string& sql);
  // First column of the only row (throws when there is no row or it is NULL).
  int64_t integer(const std::string& sql);
  double real(const std::string& sql);
  std::string text(const std::string& sql);

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

// Receive throughput per destination port in Gb/s, counting 20 B of
// preamble and inter-frame gap per frame, over deliveries in [from_ps, to_ps).
std::map<int, double> rx_gbps(Db& db, int64_t from_ps, int64_t to_ps);

// Every table of a run's database in rowid order, but the run's bookkeeping
// (wall time, start, host, process): what must be the same for two runs of
// one configuration and seed.
std::vector<std::string> database_contents(const std::string& path);

// Frames injected before `injected_before_ps` that were not delivered exactly
// once (unicast: one copy each). Joins on an aggregate, so it stays fast on
// large runs (deliveries has no index on frame_id).
int64_t frames_not_delivered_once(Db& db, int64_t injected_before_ps);

// Frames of the flow named `flow` injected before `injected_before_ps` that
// did not reach each of `destinations` ports exactly once (multicast).
int64_t frames_not_delivered_to_each(Db& db, const std::string& flow, int64_t injected_before_ps, int destinations);

constexpr int64_t kUs = 1'000'000;  // picoseconds

}  // namespace fabricsim_it
