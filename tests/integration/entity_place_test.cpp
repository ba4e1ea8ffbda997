// Issue 55: every entity of a run carries its place as columns (entities.
// from_kind, from_id, to_kind, to_id, direction), written by fabricsim from
// what the model built; a file of schema version 5 gets the same columns by
// db/migrations.sql's reading of the names. Each platform that records
// links: the fabric, the backplane and the ring.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "tests/db/db_test_support.h"
#include "tests/integration/harness.h"

namespace fabricsim_it {
namespace {

// E5a (QCN at the egress of a port three sources overload, on 6 leaves)
// with the CNAs' end-to-end transport: ports, leaves, links of all four
// kinds, CNAs and a congestion point.
Args fabric_run(const std::string& db) {
  return Args()
      .opt("--study", "E5a")
      .set("record.sample_interval=10us")
      .set("cna.e2e.retransmit=true")
      .opt("--time", "60us")
      .opt("--db", db);
}
Args backplane_run(const std::string& db) {
  return Args().opt("--study", "E12a").opt("--time", "50us").opt("--db", db);
}
// Three rings joined by two bridges: stations, segments between stations
// and bridges, bridge sides.
Args ring_run(const std::string& db) { return Args().opt("--study", "E14rings").opt("--time", "20us").opt("--db", db); }

// The name each link (or segment, bridge side) of run 1 would have, made
// from its columns; the rows whose name is not that. A fabric CNA's port is
// its leaf's k-th user port (ports). A ring segment's name holds only its
// ring and position: its ends are checked below.
const char* const kLinksNamedOtherwise = R"sql(
SELECT name, from_kind, from_id, to_kind, to_id, direction FROM entities AS e
WHERE run_id = 1 AND kind IN ('link', 'bridge_side') AND name IS NOT CASE
  WHEN from_kind = 'leaf' AND to_kind = 'spine' AND direction = 'up' THEN 'leaf' || from_id || '_spine' || to_id || '_up'
  WHEN from_kind = 'spine' AND to_kind = 'leaf' AND direction = 'down' THEN 'leaf' || to_id || '_spine' || from_id || '_down'
  WHEN from_kind = 'port' AND to_kind = 'leaf' AND direction = 'up' THEN 'leaf' || to_id || '_port' ||
    (SELECT count(*) FROM ports AS p WHERE p.run_id = 1 AND p.leaf_id = e.to_id AND p.kind = 'user'
                                       AND p.port_id < e.from_id) || '_from_cna'
  WHEN from_kind = 'leaf' AND to_kind = 'port' AND direction = 'down' THEN 'leaf' || from_id || '_port' ||
    (SELECT count(*) FROM ports AS p WHERE p.run_id = 1 AND p.leaf_id = e.from_id AND p.kind = 'user'
                                       AND p.port_id < e.to_id) || '_to_cna'
  WHEN from_kind = 'station' AND to_kind = 'switch' AND to_id = 0 AND direction = 'to_switch'
    THEN 'station' || from_id || '_to_switch'
  WHEN from_kind = 'switch' AND from_id = 0 AND to_kind = 'station' AND direction = 'to_station'
    THEN 'switch_to_station' || to_id
  WHEN from_kind = 'bridge' AND to_kind = 'ring' AND direction IS NULL AND to_id = from_id / 2
    THEN 'bridge' || from_id || '.side0'
  WHEN from_kind = 'bridge' AND to_kind = 'ring' AND direction IS NULL AND to_id = from_id + 1
    THEN 'bridge' || from_id || '.side1'
END)sql";

// Entities that are not links whose unit is not the one their name and
// port_id say (a leaf its leaf, a CNA, port or congestion point its port,
// a station itself, the switch switch 0), or that have a far end.
const char* const kUnitsOtherwise = R"sql(
SELECT name, kind, from_kind, from_id, to_kind, direction FROM entities
WHERE run_id = 1 AND kind NOT IN ('link', 'segment', 'bridge_side') AND NOT coalesce(to_kind IS NULL AND CASE kind
  WHEN 'system' THEN from_kind IS NULL AND direction IS NULL
  WHEN 'leaf' THEN from_kind = 'leaf' AND name = 'leaf' || from_id AND direction IS NULL
  WHEN 'port' THEN from_kind = 'port' AND from_id = port_id AND name = 'port' || from_id AND direction IS NULL
  WHEN 'cna' THEN from_kind = 'port' AND from_id = port_id AND name = 'cna' || from_id AND direction IS NULL
  WHEN 'congestion_point' THEN from_kind = 'port' AND from_id = port_id AND name = 'port' || from_id || '.' || direction
  WHEN 'station' THEN from_kind = 'station' AND from_id = port_id AND name = 'station' || from_id AND direction IS NULL
  WHEN 'switch' THEN from_kind = 'switch' AND from_id = 0 AND direction IS NULL
  ELSE 0
END, 0))sql";

void expect_places_match_names(const std::string& path) {
  Db db(path);
  EXPECT_EQ(db.dump(kLinksNamedOtherwise), "");
  EXPECT_EQ(db.integer("SELECT count(*) FROM entities WHERE vl IS NOT NULL"), 0);  // no entity is per VL
  EXPECT_EQ(db.dump(kUnitsOtherwise), "");
}

// Runs `args` (which write `path`); its entities' places match their names.
void run_and_check_places(const Args& args, const std::string& path) {
  const ProcResult r = run_fabricsim(args);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  expect_places_match_names(path);
}

TEST(EntityPlaces, FabricEntitiesCarryTheirEndsAndDirection) {
  TempDir dir;
  const std::string path = dir.file("fabric.db");
  ASSERT_NO_FATAL_FAILURE(run_and_check_places(fabric_run(path), path));
  Db db(path);
  // Links of all four kinds, leaves, CNAs and congestion points were checked.
  EXPECT_EQ(db.dump("SELECT from_kind, to_kind, direction, count(*) > 0 FROM entities WHERE kind = 'link' "
                    "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"),
            "leaf|port|down|1\nleaf|spine|up|1\nport|leaf|up|1\nspine|leaf|down|1\n");
  EXPECT_EQ(db.dump("SELECT kind FROM entities WHERE kind IN ('leaf', 'cna', 'congestion_point') GROUP BY kind"),
            "cna\ncongestion_point\nleaf\n");
  // leaf1_spine3_up, spelt out: from leaf 1 to spine 3, up.
  EXPECT_EQ(
      db.dump("SELECT from_kind, from_id, to_kind, to_id, direction FROM entities WHERE name = 'leaf1_spine3_up'"),
      "leaf|1|spine|3|up\n");
  // The per-spine sum without string work equals the one by names.
  EXPECT_EQ(
      db.dump("SELECT spine, direction, total FROM v_link_totals_per_spine WHERE run_id = 1 AND metric = 'bytes' "
              "ORDER BY 1, 2"),
      db.dump("SELECT CAST(substr(entity, instr(entity, '_spine') + 6) AS INTEGER), "
              "CASE WHEN entity GLOB '*_up' THEN 'up' ELSE 'down' END, sum(value) FROM v_run_totals "
              "WHERE run_id = 1 AND metric = 'bytes' AND entity GLOB 'leaf*_spine*' GROUP BY 1, 2 ORDER BY 1, 2"));
  EXPECT_GT(db.integer("SELECT count(DISTINCT spine) FROM v_link_totals_per_spine WHERE metric = 'bytes'"), 1);
}

TEST(EntityPlaces, BackplaneEntitiesCarryTheirEnds) {
  TempDir dir;
  const std::string path = dir.file("backplane.db");
  ASSERT_NO_FATAL_FAILURE(run_and_check_places(backplane_run(path), path));
  Db db(path);
  EXPECT_EQ(db.dump("SELECT from_kind, to_kind, direction, count(*) > 0 FROM entities WHERE kind = 'link' "
                    "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"),
            "station|switch|to_switch|1\nswitch|station|to_station|1\n");
}

TEST(EntityPlaces, RingSegmentsRunFromEachPositionToTheNext) {
  TempDir dir;
  const std::string path = dir.file("ring.db");
  ASSERT_NO_FATAL_FAILURE(run_and_check_places(ring_run(path), path));
  Db db(path);
  // E14rings: 3 rings of 16 stations; ring 0 has bridges 0 and 1 (to its
  // children, rings 1 and 2) after its stations, rings 1 and 2 the bridge
  // to ring 0. Each segment leaves the position its name gives.
  EXPECT_EQ(db.dump("SELECT name, from_kind, from_id, to_kind, to_id FROM entities WHERE name IN ('ring0.segment0', "
                    "'ring0.segment15', 'ring0.segment16', 'ring0.segment17', 'ring1.segment16', 'ring2.segment3', "
                    "'ring2.segment16') ORDER BY name"),
            "ring0.segment0|station|0|station|1\n"
            "ring0.segment15|station|15|bridge|0\n"
            "ring0.segment16|bridge|0|bridge|1\n"
            "ring0.segment17|bridge|1|station|0\n"
            "ring1.segment16|bridge|0|station|16\n"
            "ring2.segment16|bridge|1|station|32\n"
            "ring2.segment3|station|35|station|36\n");
  EXPECT_EQ(
      db.integer("SELECT count(*) FROM entities WHERE kind = 'segment' AND (from_kind IS NULL OR to_kind IS NULL)"), 0);
  EXPECT_EQ(db.integer("SELECT count(*) FROM entities WHERE kind = 'bridge_side'"), 4);
}

// A file of version 5 (entities by name only) comes up to this version: its
// run's entities get the places a run of this version records, read from
// their names, for every platform that records links.
TEST(EntityPlaces, AFileOfSchemaVersion5GetsTheEndsThisVersionRecords) {
  for (const auto& [platform, run] :
       {std::pair{"fabric", &fabric_run}, std::pair{"backplane", &backplane_run}, std::pair{"ring", &ring_run}}) {
    SCOPED_TRACE(platform);
    TempDir dir;
    const std::string path = dir.file("old.db");
    ProcResult r = run_fabricsim(run(path));
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    fabric::db::testing::back_to_schema_version(path, 5);
    {
      Db old(path);
      ASSERT_EQ(old.integer("SELECT count(*) FROM pragma_table_info('entities') WHERE name = 'from_kind'"), 0);
    }
    r = run_fabricsim(run(path));  // brings the file up, then records run 2
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    Db db(path);
    EXPECT_EQ(db.text("SELECT value FROM meta WHERE key = 'schema_version'"), "6");
    const std::string columns = "kind, name, port_id, from_kind, from_id, to_kind, to_id, direction, vl";
    const auto of = [&](int run_id) {
      return "SELECT " + columns + " FROM entities WHERE run_id = " + std::to_string(run_id);
    };
    EXPECT_EQ(db.dump(of(1) + " EXCEPT " + of(2)), "");
    EXPECT_EQ(db.dump(of(2) + " EXCEPT " + of(1)), "");
    EXPECT_GT(db.integer("SELECT count(*) FROM entities WHERE run_id = 1 AND kind IN ('link', 'segment') "
                         "AND from_kind IS NOT NULL AND to_kind IS NOT NULL"),
              7);
    expect_places_match_names(path);
  }
}

}  // namespace
}  // namespace fabricsim_it
