// --list-params: the listing for a reader wrapped to the width it is given,
// each description indented under its key; a pattern that names some keys
// (a glob, a key, a group, an instance of a pattern key) or none (with the
// patterns near it); the listing for programs, one line per key; and the
// suggestions every "did you mean" makes (close_names).
#include "config/param_listing.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "config/close_names.h"
#include "platforms/app/parameters.h"
#include "tests/support/listing_text.h"

namespace fabric::config {
namespace {

using fabric::test::lines_of;
using fabric::test::listed_keys;

class ParamListing : public ::testing::Test {
 protected:
  std::set<std::string> keys_starting(const std::string& prefix) const {
    std::set<std::string> keys;
    for (const ParamSpec& spec : registry_.all())
      if (spec.key.rfind(prefix, 0) == 0) keys.insert(spec.key);
    return keys;
  }
  ParamRegistry registry_ = build_registry();
};

TEST_F(ParamListing, EveryLineFitsTheWidthAndEveryKeyIsListed) {
  std::set<std::string> all;
  for (const ParamSpec& spec : registry_.all()) all.insert(spec.key);
  for (size_t width : {40, 60, 80, 100, 132, 200}) {
    const std::string text = list_params_text(registry_, "", width);
    size_t widest = 0;
    for (const std::string& line : lines_of(text)) {
      EXPECT_LE(line.size(), width) << "width " << width << ": " << line;
      EXPECT_TRUE(line.empty() || line.back() != ' ') << "width " << width << ": trailing space: '" << line << "'";
      widest = std::max(widest, line.size());
    }
    EXPECT_GT(widest, width * 8 / 10) << "the listing uses the width it is given: " << width;
    EXPECT_EQ(listed_keys(text), all) << "width " << width;
  }
}

TEST_F(ParamListing, DescriptionIsWrappedAndIndentedUnderItsKey) {
  const ParamSpec* coalesce = registry_.find("leaf.control.coalesce");
  ASSERT_NE(coalesce, nullptr);
  ASSERT_GT(coalesce->description.size(), 300u);  // a long one: several lines at 100 columns
  const std::vector<std::string> lines = lines_of(list_params_text(registry_, "leaf.control.coalesce", 100));
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0], "# platform fabric (platform = fabric)") << lines[0];
  EXPECT_EQ(lines[1].rfind("KEY", 0), 0u);
  size_t at = 0;
  while (at < lines.size() && lines[at].rfind("leaf.control.coalesce ", 0) != 0) ++at;
  ASSERT_LT(at, lines.size());
  EXPECT_NE(lines[at].find("request,ack"), std::string::npos) << lines[at];  // its default, on its line
  std::string description;
  size_t description_lines = 0;
  for (size_t i = at + 1; i < lines.size(); ++i) {
    if (lines[i].rfind("    ", 0) != 0) break;
    const std::string text = lines[i].substr(4);
    if (text.front() == ' ') continue;  // the ALLOWED column's continuation
    description += (description.empty() ? "" : " ") + text;
    ++description_lines;
  }
  EXPECT_GE(description_lines, 3u);
  EXPECT_EQ(description, coalesce->description);
}

TEST_F(ParamListing, PatternNamesKeys) {
  const std::set<std::string> voq = keys_starting("leaf.voq.");
  ASSERT_GE(voq.size(), 3u);
  EXPECT_EQ(listed_keys(list_params_text(registry_, "leaf.voq.*", 100)), voq);  // a glob
  EXPECT_EQ(listed_keys(list_params_text(registry_, "leaf.voq", 100)), voq);    // a group
  EXPECT_EQ(listed_keys(list_params_text(registry_, "leaf.voq.drop", 100)), std::set<std::string>{"leaf.voq.drop"});
  EXPECT_EQ(listed_keys(list_params_text(registry_, "flow.web.src", 100)), std::set<std::string>{"flow.*.src"});
  const std::set<std::string> qhi = listed_keys(list_params_text(registry_, "*.qhi", 100));
  EXPECT_TRUE(qhi.count("leaf.pause.qhi")) << qhi.size();
  for (const std::string& key : qhi) EXPECT_EQ(key.substr(key.size() - 4), ".qhi");
  // A platform's keys keep their heading.
  EXPECT_NE(list_params_text(registry_, "ring.*", 100).find("# platform ring"), std::string::npos);
  EXPECT_EQ(list_params_text(registry_, "ring.*", 100).find("# keys of every platform"), std::string::npos);
}

TEST_F(ParamListing, PatternThatNamesNoKeySuggestsNearOnes) {
  EXPECT_EQ(list_params_text(registry_, "leaf.vq.*", 100), "");
  EXPECT_EQ(list_params_tsv(registry_, "leaf.vq.*"), "");
  const ConfigError glob = no_key_listed(registry_, "leaf.vq.*");
  EXPECT_EQ(glob.key, "--list-params");
  EXPECT_EQ(glob.value, "leaf.vq.*");
  EXPECT_NE(glob.allowed.find("did you mean 'leaf.voq.*'?"), std::string::npos) << glob.allowed;
  EXPECT_NE(no_key_listed(registry_, "leaf.voq.thresold").allowed.find("'leaf.voq.threshold'"), std::string::npos);
  const ConfigError far = no_key_listed(registry_, "zzzz.*");
  EXPECT_EQ(far.allowed.find("did you mean"), std::string::npos) << far.allowed;
  EXPECT_NE(far.allowed.find("a glob"), std::string::npos) << far.allowed;
}

TEST_F(ParamListing, ForProgramsOneLinePerKey) {
  const std::vector<std::string> lines = lines_of(list_params_tsv(registry_, ""));
  ASSERT_EQ(lines.size(), registry_.all().size() + 1);
  EXPECT_EQ(lines[0], "PLATFORM\tKEY\tTYPE\tDEFAULT\tUNIT\tALLOWED\tDESCRIPTION");
  for (const std::string& line : lines) EXPECT_EQ(std::count(line.begin(), line.end(), '\t'), 6) << line;
  EXPECT_NE(list_params_tsv(registry_, "leaf.clock_mhz").find("\tleaf.clock_mhz\treal\t454\tMHz\t"), std::string::npos);
  EXPECT_EQ(lines_of(list_params_tsv(registry_, "leaf.voq.*")).size(), keys_starting("leaf.voq.").size() + 1);
}

TEST(WrapWords, LinesAtMostTheWidth) {
  EXPECT_EQ(wrap_words("a bb ccc dddd", 6), (std::vector<std::string>{"a bb", "ccc", "dddd"}));
  EXPECT_EQ(wrap_words("abcdefgh", 3), (std::vector<std::string>{"abc", "def", "gh"}));
  EXPECT_EQ(wrap_words("  two   spaces ", 20), (std::vector<std::string>{"two spaces"}));
}

TEST(CloseNames, NearestFirstWithinATyposReach) {
  const std::vector<std::string> studies = {"E11", "allgather64", "perm640", "E14", "incast63"};
  EXPECT_EQ(close_names("perm64", studies), std::vector<std::string>{"perm640"});
  EXPECT_EQ(close_names("e11", studies), std::vector<std::string>{"E11"});
  EXPECT_TRUE(close_names("zebra", studies).empty());
  const std::vector<std::string> options = {"--set", "--seed", "--study", "--db", "--time", "--help"};
  EXPECT_EQ(close_names("--seet", options), (std::vector<std::string>{"--seed", "--set"}));
  EXPECT_TRUE(close_names("-x", options).empty());  // "--db" is two edits from it: no typo of a two-letter word
  EXPECT_TRUE(close_names(std::string(300, 'a'), {std::string(300, 'a') + "b"}).empty());
  EXPECT_EQ(did_you_mean({}), "");
  EXPECT_EQ(did_you_mean({"a"}), " -- did you mean 'a'?");
  EXPECT_EQ(did_you_mean({"a", "b", "c"}), " -- did you mean 'a', 'b' or 'c'?");
}

}  // namespace
}  // namespace fabric::config
