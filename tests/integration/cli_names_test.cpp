// The names a user types, end to end: --list-params wrapped to the
// terminal's width ($COLUMNS, or 100 into a pipe) with a pattern that names
// some keys or none, its form for programs (--format tsv), and "did you
// mean" for a study id, an option and a pattern.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <set>
#include <sstream>

#include "tests/integration/harness.h"
#include "tests/support/listing_text.h"

namespace fabricsim_it {
namespace {

using fabric::test::lines_of;
using fabric::test::listed_keys;

// The keys of the listing for programs.
std::set<std::string> tsv_keys(const std::string& text) {
  std::set<std::string> keys;
  const std::vector<std::string> lines = lines_of(text);
  for (size_t i = 1; i < lines.size(); ++i) {
    const size_t key_at = lines[i].find('\t') + 1;
    keys.insert(lines[i].substr(key_at, lines[i].find('\t', key_at) - key_at));
  }
  return keys;
}

// $COLUMNS for the fabricsim this test starts (each test is a process of its own).
class Columns {
 public:
  explicit Columns(const char* value) { value ? setenv("COLUMNS", value, 1) : unsetenv("COLUMNS"); }
  ~Columns() { unsetenv("COLUMNS"); }
};

size_t widest_line(const std::string& text) {
  size_t widest = 0;
  for (const std::string& line : lines_of(text)) widest = std::max(widest, line.size());
  return widest;
}

TEST(IntegrationCliParams, ListParamsWrapsToTheTerminalWidth) {
  ProcResult tsv;
  {
    const Columns none(nullptr);
    tsv = run_fabricsim(Args().opt("--list-params").opt("--format", "tsv"));
    ASSERT_TRUE(tsv.exited && tsv.exit_code == 0) << tsv.describe();
    EXPECT_EQ(lines_of(tsv.out).front(), "PLATFORM\tKEY\tTYPE\tDEFAULT\tUNIT\tALLOWED\tDESCRIPTION");
    EXPECT_GT(widest_line(tsv.out), 300u) << "one line per key, descriptions whole";
    // Into a pipe without $COLUMNS: 100 columns.
    const ProcResult piped = run_fabricsim(Args().opt("--list-params"));
    ASSERT_TRUE(piped.exited && piped.exit_code == 0) << piped.describe();
    EXPECT_LE(widest_line(piped.out), 100u);
    EXPECT_GE(widest_line(piped.out), 90u);
    EXPECT_EQ(listed_keys(piped.out), tsv_keys(tsv.out));
  }
  ASSERT_GT(tsv_keys(tsv.out).size(), 200u);
  for (const char* width : {"60", "80", "132"}) {
    const Columns columns(width);
    const ProcResult r = run_fabricsim(Args().opt("--list-params"));
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    EXPECT_LE(widest_line(r.out), std::stoul(width)) << "COLUMNS=" << width;
    EXPECT_GE(widest_line(r.out), std::stoul(width) - 10) << "COLUMNS=" << width;
    EXPECT_EQ(listed_keys(r.out), tsv_keys(tsv.out)) << "COLUMNS=" << width;
    // A description is indented under its key.
    const std::vector<std::string> lines = lines_of(r.out);
    for (size_t i = 0; i + 1 < lines.size(); ++i)
      if (lines[i].rfind("leaf.clock_mhz ", 0) == 0) EXPECT_EQ(lines[i + 1].rfind("    ", 0), 0u) << lines[i + 1];
  }
}

TEST(IntegrationCliParams, ListParamsPatternNamesKeys) {
  const ProcResult voq = run_fabricsim(Args().opt("--list-params").opt("leaf.voq.*"));
  ASSERT_TRUE(voq.exited && voq.exit_code == 0) << voq.describe();
  const std::set<std::string> keys = listed_keys(voq.out);
  EXPECT_GE(keys.size(), 3u) << voq.out;
  EXPECT_TRUE(keys.count("leaf.voq.drop")) << voq.out;
  for (const std::string& key : keys) EXPECT_EQ(key.rfind("leaf.voq.", 0), 0u) << key;
  const ProcResult group = run_fabricsim(Args().opt("--list-params").opt("leaf.voq").opt("--format", "tsv"));
  ASSERT_TRUE(group.exited && group.exit_code == 0) << group.describe();
  EXPECT_EQ(tsv_keys(group.out), keys);
  // With --resolved, the run's keys the pattern names.
  const ProcResult resolved =
      run_fabricsim(Args().opt("--list-params").opt("--resolved").opt("--study", "E11").opt("leaf.voq.*"));
  ASSERT_TRUE(resolved.exited && resolved.exit_code == 0) << resolved.describe();
  const std::vector<std::string> lines = lines_of(resolved.out);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0], "KEY\tVALUE\tSOURCE\tORIGIN");
  for (size_t i = 1; i < lines.size(); ++i) EXPECT_EQ(lines[i].rfind("leaf.voq.", 0), 0u) << lines[i];
}

TEST(IntegrationCliParams, ListParamsPatternThatNamesNothingSuggests) {
  const ProcResult r = run_fabricsim(Args().opt("--list-params").opt("leaf.vq.*"));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("key '--list-params' has value 'leaf.vq.*'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean 'leaf.voq.*'?"), std::string::npos) << r.err;
  const ProcResult format = run_fabricsim(Args().opt("--list-params").opt("--format", "tabel"));
  EXPECT_EQ(format.exit_code, 2) << format.describe();
  EXPECT_NE(format.err.find("--format has value 'tabel'; allowed: table, tsv -- did you mean 'table'?"),
            std::string::npos)
      << format.err;
}

TEST(IntegrationCliSuggestions, UnknownStudyNamesTheCloseOnes) {
  TempDir dir;
  const ProcResult r = run_fabricsim(Args().opt("--study", "perm64").opt("--db", dir.file("x.db")));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("key '--study' has value 'perm64'; allowed: one of: E10,"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("perm640 (the shipped studies) -- did you mean 'perm640'?"), std::string::npos) << r.err;
  EXPECT_FALSE(file_exists(dir.file("x.db")));
  const ProcResult far = run_fabricsim(Args().opt("--study", "nothing-like-it").opt("--db", dir.file("x.db")));
  EXPECT_EQ(far.exit_code, 2) << far.describe();
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

TEST(IntegrationCliSuggestions, UnknownOptionNamesTheCloseOnes) {
  TempDir dir;
  const ProcResult r = run_fabricsim(Args().opt("--seet", "3").opt("--db", dir.file("x.db")));
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err.find("unknown option '--seet' -- did you mean '--seed' or '--set'? (see --help)"), std::string::npos)
      << r.err;
  const ProcResult listing = run_fabricsim(Args().opt("--list-parms").opt("--db", dir.file("x.db")));
  EXPECT_EQ(listing.exit_code, 2) << listing.describe();
  EXPECT_NE(listing.err.find("did you mean '--list-params'?"), std::string::npos) << listing.err;
  const ProcResult far = run_fabricsim(Args().opt("--zzzzzz").opt("--db", dir.file("x.db")));
  EXPECT_EQ(far.exit_code, 2) << far.describe();
  EXPECT_NE(far.err.find("unknown option '--zzzzzz' (see --help)"), std::string::npos) << far.err;
  EXPECT_FALSE(file_exists(dir.file("x.db")));
}

}  // namespace
}  // namespace fabricsim_it
