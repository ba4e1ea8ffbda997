// Per-instance keys (config/instance_keys.h): leaf[3].cache.entries and
// the like, in the registry and the Config of the class-wide keys they refine.
#include "config/instance_keys.h"

#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "config/param.h"
#include "config/param_listing.h"
#include "tests/support/config_error_of.h"

namespace fabric::config {
namespace {

using fabric::testing::config_error_of;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct Keys {
  Param<Integer> entries{"leaf.cache.entries", "128", "packets", "cache entries", 1, 4096};
  Param<Bytes> threshold{"leaf.voq.threshold", "60KB", "B", "Vth", 256, 1e8};
  Param<Integer> packet_bytes{"leaf.packet_bytes", "256", "B", "cell", 64, 4096};
  Param<Duration> traversal{"spine.traversal_latency", "44ns", "ps", "spine latency", 0, 1e9};
  Param<Real> ber{"errors.leaf_spine.ber", "0", "", "bit error rate", 0, 1e-3};
  Param<Duration> time{"sim.time", "1ms", "ps", "run length", 1, 1e15};
};

ParamRegistry registry() {
  ParamRegistry r;
  {
    ParamScope declaring(r);
    Keys keys;
  }
  InstanceGroup leaf;
  leaf.name = "leaf";
  leaf.instances = "leaf indices";
  leaf.fabric_wide = {"leaf.packet_bytes"};
  leaf.fabric_wide_why = "the cell size of every unit";
  r.declare_group(leaf);
  InstanceGroup spine;
  spine.name = "spine";
  spine.instances = "spine indices";
  r.declare_group(spine);
  InstanceGroup link;
  link.name = "link";
  link.by_name = true;
  link.instances = "link names";
  link.listed_rests = {"errors.ber"};
  link.class_key = [](const std::string& rest) {
    return rest == "errors.ber" ? std::string("errors.leaf_spine.ber") : std::string();
  };
  r.declare_group(link);
  return r;
}

TEST(InstanceKeys, SplitsGroupSelectorAndRest) {
  const auto k = split_instance_key("leaf[0-7,12].cache.entries");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->group, "leaf");
  EXPECT_EQ(k->selector, "0-7,12");
  EXPECT_EQ(k->rest, "cache.entries");
  EXPECT_FALSE(split_instance_key("leaf.cache.entries"));
  EXPECT_EQ(split_instance_key("leaf[3]cache")->rest, "");  // malformed: no rest
  EXPECT_EQ(split_instance_key("leaf[3")->rest, "");
}

TEST(InstanceKeys, SelectorsOfIndicesAndNames) {
  const ParamRegistry r = registry();
  const Selection s = parse_selection(*r.group("leaf"), "k", "v", "0-3, 7,2");
  EXPECT_EQ(std::set<int64_t>({0, 1, 2, 3, 7}), s.indices);
  for (const char* bad : {"", "a", "3-1", "1-", "-1", "1,,2", "5000000"})
    EXPECT_THROW(parse_selection(*r.group("leaf"), "k", "v", bad), ConfigError) << bad;
  const Selection links = parse_selection(*r.group("link"), "k", "v", "leaf1_spine2_up,leaf1_spine2_down");
  EXPECT_EQ(2u, links.names.size());
  EXPECT_TRUE(links.contains("leaf1_spine2_down"));
  EXPECT_THROW(parse_selection(*r.group("link"), "k", "v", "leaf1 spine2"), ConfigError);
}

TEST(InstanceKeys, NamePatternsMatchAnyRunOfCharacters) {
  EXPECT_TRUE(name_matches("*_spine7_*", "leaf3_spine7_up"));
  EXPECT_TRUE(name_matches("*_spine7_*", "leaf12_spine7_down"));
  EXPECT_FALSE(name_matches("*_spine7_*", "leaf3_spine17_up"));
  EXPECT_FALSE(name_matches("*_spine7_*", "leaf3_spine7"));
  EXPECT_TRUE(name_matches("leaf3_*", "leaf3_port0_to_cna"));
  EXPECT_FALSE(name_matches("leaf3_*", "leaf31_spine0_up"));
  EXPECT_TRUE(name_matches("*", "anything"));
  EXPECT_TRUE(name_matches("leaf1_spine2_up", "leaf1_spine2_up"));
  EXPECT_FALSE(name_matches("leaf1_spine2_up", "leaf1_spine2_upx"));
  EXPECT_TRUE(name_matches("a**b*c", "aXbYbc"));
  const ParamRegistry r = registry();
  const Selection spine7 = parse_selection(*r.group("link"), "k", "v", "*_spine7_*");
  EXPECT_TRUE(spine7.contains("leaf0_spine7_up"));
  EXPECT_FALSE(spine7.contains("leaf0_spine6_up"));
}

TEST(InstanceKeys, RegistryFindsTheClassWideDeclaration) {
  const ParamRegistry r = registry();
  ASSERT_TRUE(r.find("leaf[3].cache.entries"));
  EXPECT_EQ("leaf.cache.entries", r.find("leaf[3].cache.entries")->key);
  EXPECT_EQ("errors.leaf_spine.ber", r.find("link[leaf0_spine1_up].errors.ber")->key);
  EXPECT_FALSE(r.find("leaf[3].packet_bytes"));  // fabric-wide
  EXPECT_FALSE(r.find("sim[3].time"));
  EXPECT_EQ(r.group("leaf"), r.group_of(*r.find("leaf.cache.entries")));
  EXPECT_EQ(nullptr, r.group_of(*r.find("leaf.packet_bytes")));
  EXPECT_EQ(nullptr, r.group_of(*r.find("sim.time")));
}

TEST(InstanceKeys, BadKeysNameTheKeyValueAndWhatIsAllowed) {
  const ParamRegistry r = registry();
  Config c(r);
  const auto error = [&](const std::string& key, const std::string& value) {
    return config_error_of([&] { c.set(key, value); });
  };
  const ConfigError group = error("sim[3].time", "1us");
  EXPECT_EQ("sim[3].time", group.key);
  EXPECT_EQ("1us", group.value);
  EXPECT_TRUE(contains(group.allowed, "leaf[SELECTOR].KEY")) << group.allowed;
  EXPECT_TRUE(contains(group.allowed, "not per instance")) << group.allowed;
  const ConfigError wide = error("leaf[3].packet_bytes", "512");
  EXPECT_TRUE(contains(wide.allowed, "one value for the whole fabric")) << wide.allowed;
  EXPECT_TRUE(contains(wide.allowed, "set it as leaf.packet_bytes")) << wide.allowed;
  const ConfigError reversed = error("leaf[3-1].cache.entries", "32");
  EXPECT_EQ("leaf[3-1].cache.entries", reversed.key);
  EXPECT_TRUE(contains(reversed.allowed, "A <= B")) << reversed.allowed;
  EXPECT_TRUE(contains(error("leaf[x].cache.entries", "32").allowed, "'0-7,12'"));
  EXPECT_TRUE(contains(error("leaf[3]", "32").allowed, "leaf[SELECTOR].KEY"));
  // The value against the class-wide declaration: a cache of 0 entries.
  const ConfigError zero = error("leaf[3].cache.entries", "0");
  EXPECT_EQ("leaf[3].cache.entries", zero.key);
  EXPECT_EQ("0", zero.value);
  EXPECT_TRUE(contains(zero.allowed, "1 .. 4096")) << zero.allowed;
  // 'did you mean' on the key's part, with the selector kept.
  const ConfigError typo = error("leaf[3].cache.entires", "32");
  EXPECT_TRUE(contains(typo.allowed, "did you mean 'leaf[3].cache.entries'")) << typo.allowed;
  EXPECT_TRUE(contains(r.unknown_key("leaf[3].cache.entires", "32").allowed, "did you mean 'leaf[3].cache.entries'"));
}

TEST(InstanceKeys, AnInstanceReadsItsOverridesLaterWinning) {
  const ParamRegistry r = registry();
  Config c(r);
  c.set("leaf.cache.entries", "64");
  c.set("leaf[0-7].cache.entries", "16");
  c.set("leaf[3].cache.entries", "32");
  c.set("leaf[2,3].voq.threshold", "30KB");
  const std::vector<InstanceOverride> overrides = c.instance_overrides("leaf");
  ASSERT_EQ(3u, overrides.size());
  EXPECT_EQ("leaf.cache.entries", overrides[0].class_key);
  const auto entries = [](const Config& view) {
    ParamScope reading(view);
    Keys keys;
    return keys.entries.value();
  };
  EXPECT_EQ(64, entries(c));
  EXPECT_EQ(32, entries(c.instance_view("leaf", 3)));
  EXPECT_EQ(16, entries(c.instance_view("leaf", 4)));
  EXPECT_EQ(64, entries(c.instance_view("leaf", 9)));
  // Given again, a key wins over those given since.
  c.set("leaf[0-7].cache.entries", "8");
  EXPECT_EQ(8, entries(c.instance_view("leaf", 3)));
  EXPECT_EQ("8", c.resolved_for_instance("leaf[3].cache.entries").value);
  EXPECT_EQ("leaf[0-7].cache.entries", c.resolved_for_instance("leaf[3].cache.entries").key);
  EXPECT_EQ("leaf.cache.entries", c.resolved_for_instance("leaf[9].cache.entries").key);
  EXPECT_EQ("64", c.resolved_for_instance("leaf[9].cache.entries").value);
  // An error found where an instance's value is used names its key.
  const Config view = c.instance_view("leaf", 2);
  ParamScope reading(view);
  Keys keys;
  const ConfigError e = config_error_of([&] { keys.threshold.fail("at most the pool"); });
  EXPECT_EQ("leaf[2,3].voq.threshold", e.key);
  EXPECT_EQ("30KB", e.value);
}

TEST(InstanceKeys, RecordedAsGivenAndUsedOnceRead) {
  const ParamRegistry r = registry();
  Config c(r);
  c.set("spine[7].traversal_latency", "1us");
  c.set("link[leaf0_spine1_up].errors.ber", "1e-6");
  const std::vector<ResolvedParam> params = c.resolved_params();
  const auto has = [&](const std::string& key, const std::string& value) {
    for (const ResolvedParam& p : params)
      if (p.key == key) return p.value == value && p.source == ValueSource::set;
    return false;
  };
  EXPECT_TRUE(has("spine[7].traversal_latency", "1us"));
  EXPECT_TRUE(has("link[leaf0_spine1_up].errors.ber", "1e-6"));
  EXPECT_THROW(c.check_all_used(), ConfigError);
  c.instance_overrides("spine");
  c.instance_overrides("link");
  EXPECT_NO_THROW(c.check_all_used());
}

TEST(InstanceKeys, IniFilesTakeThem) {
  const ParamRegistry r = registry();
  Config c(r);
  const std::string path = "/tmp/instance_keys_test.ini";
  {
    FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("[leaf]\n[3].cache.entries = 1\nleaf[4].cache.entries = 2\n", f);
    std::fclose(f);
  }
  // "[3].cache.entries" under [leaf] is no key: only the full form is one.
  EXPECT_THROW(c.load_ini(path), ConfigError);
  {
    FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("leaf[4].cache.entries = 2\n", f);
    std::fclose(f);
  }
  c.load_ini(path);
  EXPECT_EQ("2", c.resolved_for_instance("leaf[4].cache.entries").value);
  {
    FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("[leaf[5]]\ncache.entries = 3\n", f);  // a section of one instance's keys
    std::fclose(f);
  }
  c.load_ini(path);
  EXPECT_EQ("3", c.resolved_for_instance("leaf[5].cache.entries").value);
  c.load_ini(path);
  EXPECT_EQ(path + ":1", c.resolved("leaf[4].cache.entries").origin);
  std::remove(path.c_str());
}

TEST(InstanceKeys, ListParamsDocumentsTheSyntax) {
  const ParamRegistry r = registry();
  const std::string text = list_params_text(r, "", 100);
  EXPECT_TRUE(contains(text, "# per-instance keys")) << text;
  EXPECT_TRUE(contains(text, "leaf[SELECTOR].KEY")) << text;
  EXPECT_TRUE(contains(text, "but leaf.packet_bytes")) << text;
  EXPECT_TRUE(contains(text, "link[SELECTOR].KEY")) << text;
  EXPECT_FALSE(contains(list_params_text(r, "sim", 100), "per-instance"));
  // --list-params PATTERN --resolved: an instance key is named as its group's key too.
  EXPECT_TRUE(names_key("leaf.cache", "leaf[3].cache.entries"));
  EXPECT_TRUE(names_key("leaf.*", "leaf[0-7,12].cache.entries"));
  EXPECT_TRUE(names_key("leaf[3].cache.entries", "leaf[3].cache.entries"));
  EXPECT_FALSE(names_key("spine", "leaf[3].cache.entries"));
}

}  // namespace
}  // namespace fabric::config
