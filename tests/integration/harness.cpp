#include "tests/integration/harness.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#ifndef FABRICSIM_BINARY
#error "FABRICSIM_BINARY must name the fabricsim executable"
#endif

namespace fabricsim_it {
namespace fs = std::filesystem;

TempDir::TempDir() {
  char tmpl[] = "/tmp/fabricsim_it_XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
  path_ = tmpl;
}

TempDir::~TempDir() {
  if (std::getenv("FABRICSIM_IT_KEEP")) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

Args two_leaf() { return Args().opt("--study", "perm640").set("topology.racks=1").set("topology.leaves=2"); }

Args two_leaf_shift() {
  return two_leaf().set("traffic.pattern=permutation").set("traffic.permutation=shift").set("traffic.shift=5");
}

std::string write_two_leaf_ini(const TempDir& dir) {
  const std::string path = dir.file("two_leaf.ini");
  std::ofstream out(path);
  out << "# 2-leaf fabric for integration tests: ports 0-4 on leaf 0, 5-9 on leaf 1\n"
      << "[topology]\nracks = 1\nleaves = 2\n";
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool file_exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

void copy_file(const std::string& from, const std::string& to) {
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

std::string ProcResult::describe() const {
  std::ostringstream s;
  if (timed_out) s << "timed out; ";
  if (exited) {
    s << "exit status " << exit_code;
  } else {
    s << "killed by signal " << term_signal;
  }
  s << " after " << wall_seconds << " s\n--- stdout ---\n" << out << "--- stderr ---\n" << err;
  return s.str();
}

Background start_fabricsim(const Args& args, const TempDir& dir) {
  static int counter = 0;
  Background bg;
  const std::string stem = dir.file("proc" + std::to_string(counter++));
  bg.out_path = stem + ".out";
  bg.err_path = stem + ".err";
  std::vector<std::string> argv_s{FABRICSIM_BINARY, "--quiet"};
  argv_s.insert(argv_s.end(), args.v.begin(), args.v.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int out_fd = ::open(bg.out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int err_fd = ::open(bg.err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out_fd < 0 || err_fd < 0) throw std::runtime_error("cannot create capture files in " + dir.path());
  bg.start = now_seconds();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, 0);
    ::dup2(out_fd, 1);
    ::dup2(err_fd, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out_fd);
  ::close(err_fd);
  bg.pid = pid;
  return bg;
}

ProcResult wait_fabricsim(const Background& bg, double timeout_seconds) {
  ProcResult r;
  int status = 0;
  for (;;) {
    const pid_t w = ::waitpid(bg.pid, &status, WNOHANG);
    if (w == bg.pid) break;
    if (w < 0 && errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    if (now_seconds() - bg.start > timeout_seconds) {
      r.timed_out = true;
      ::kill(bg.pid, SIGKILL);
      ::waitpid(bg.pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.wall_seconds = now_seconds() - bg.start;
  r.exited = WIFEXITED(status);
  if (r.exited) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
  r.out = read_text(bg.out_path);
  r.err = read_text(bg.err_path);
  fail_on_systemc_warnings(r);
  return r;
}

// style.md: a SystemC warning (an illegal name, a deprecated call, ...)
// fails the test whose fabricsim printed it, whatever the test checks.
void fail_on_systemc_warnings(const ProcResult& r) {
  for (const std::string* text : {&r.out, &r.err}) {
    const size_t at = text->find("Warning: (");
    if (at != std::string::npos)
      ADD_FAILURE() << "fabricsim printed a SystemC warning: " << text->substr(at, text->find('\n', at) - at);
  }
}

ProcResult run_fabricsim(const Args& args, double timeout_seconds) {
  TempDir capture;
  return wait_fabricsim(start_fabricsim(args, capture), timeout_seconds);
}

Db::Db(const std::string& path) : path_(path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open " + path + ": " + msg);
  }
  sqlite3_busy_timeout(db_, 5000);
}

Db::~Db() { sqlite3_close(db_); }

void Db::exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : "?";
    sqlite3_free(err);
    throw std::runtime_error(path_ + ": " + msg + " in: " + sql);
  }
}

std::vector<std::vector<std::string>> Db::rows(const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
    throw std::runtime_error(path_ + ": " + sqlite3_errmsg(db_) + " in: " + sql);
  std::vector<std::vector<std::string>> out;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int c = 0; c < sqlite3_column_count(st); ++c) {
      const unsigned char* t = sqlite3_column_text(st, c);
      row.emplace_back(sqlite3_column_type(st, c) == SQLITE_NULL ? "NULL" : reinterpret_cast<const char*>(t));
    }
    out.push_back(std::move(row));
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) throw std::runtime_error(path_ + ": " + sqlite3_errmsg(db_) + " in: " + sql);
  return out;
}

std::string Db::dump(const std::string& sql) {
  std::string s;
  for (const auto& row : rows(sql)) {
    for (size_t i = 0; i < row.size(); ++i) s += (i ? "|" : "") + row[i];
    s += "\n";
  }
  return s;
}

std::string Db::text(const std::string& sql) {
  const auto r = rows(sql);
  if (r.size() != 1 || r[0].empty()) throw std::runtime_error("expected one row from: " + sql);
  return r[0][0];
}

int64_t Db::integer(const std::string& sql) {
  const std::string t = text(sql);
  if (t == "NULL") throw std::runtime_error("NULL from: " + sql);
  return std::stoll(t);
}

double Db::real(const std::string& sql) {
  const std::string t = text(sql);
  if (t == "NULL") throw std::runtime_error("NULL from: " + sql);
  return std::stod(t);
}

std::map<int, double> rx_gbps(Db& db, int64_t from_ps, int64_t to_ps) {
  const std::string sql =
      "SELECT d.dst_port, sum(f.bytes + 20) FROM deliveries d JOIN frames f "
      "ON f.run_id = d.run_id AND f.frame_id = d.frame_id WHERE d.t_delivered_ps >= " +
      std::to_string(from_ps) + " AND d.t_delivered_ps < " + std::to_string(to_ps) + " GROUP BY d.dst_port";
  std::map<int, double> out;
  const double seconds = static_cast<double>(to_ps - from_ps) * 1e-12;
  for (const auto& row : db.rows(sql)) out[std::stoi(row[0])] = std::stod(row[1]) * 8 / seconds / 1e9;
  return out;
}

int64_t frames_not_delivered_to_each(Db& db, const std::string& flow, int64_t injected_before_ps, int destinations) {
  const std::string n = std::to_string(destinations);
  return db.integer(
      "SELECT count(*) FROM frames f LEFT JOIN (SELECT run_id, frame_id, count(*) AS n, count(DISTINCT dst_port) AS m "
      "FROM deliveries GROUP BY run_id, frame_id) d ON d.run_id = f.run_id AND d.frame_id = f.frame_id "
      "WHERE f.flow_id = (SELECT flow_id FROM flows WHERE name = '" +
      flow +
      "') AND f.t_injected_ps >= 0 "
      "AND f.t_injected_ps < " +
      std::to_string(injected_before_ps) + " AND (coalesce(d.n, 0) <> " + n + " OR coalesce(d.m, 0) <> " + n + ")");
}

int64_t frames_not_delivered_once(Db& db, int64_t injected_before_ps) {
  return db.integer(
      "SELECT count(*) FROM frames f LEFT JOIN (SELECT run_id, frame_id, count(*) AS n FROM deliveries "
      "GROUP BY run_id, frame_id) d ON d.run_id = f.run_id AND d.frame_id = f.frame_id "
      "WHERE f.t_injected_ps < " +
      std::to_string(injected_before_ps) + " AND coalesce(d.n, 0) <> 1");
}

std::vector<std::string> database_contents(const std::string& path) {
  Db db(path);
  std::vector<std::string> out;
  for (const char* table : {"frames", "deliveries", "drops", "events", "samples", "flows", "flow_dests", "ports",
                            "subflow_summary", "jobs", "job_ranks", "job_operations"})
    out.push_back(std::string(table) + ":\n" + db.dump(std::string("SELECT * FROM ") + table + " ORDER BY rowid"));
  out.push_back("runs:\n" + db.dump("SELECT seed, config, sim_time_ps, status FROM runs"));
  return out;
}

}  // namespace fabricsim_it
