// Entities (issue 40): ports are named by their port ids; every other
// entity is declared once by name, numbered from kFirstNamedEntity in the
// order declared, with one kind.
#include <gtest/gtest.h>

#include <stdexcept>

#include "model/recording/entity_table.h"

namespace fabric {
namespace {

TEST(EntityTable, NumbersEntitiesInTheOrderDeclaredAfterThePorts) {
  EntityTable t;
  const EntityId leaf = t.declare(EntityKind::leaf, "leaf0");
  const EntityId link = t.declare(EntityKind::link, "leaf0_spine1_up");
  const EntityId cna = t.declare(EntityKind::cna, "cna5", 5);
  EXPECT_EQ(static_cast<int64_t>(leaf), kFirstNamedEntity);
  EXPECT_EQ(static_cast<int64_t>(link), kFirstNamedEntity + 1);
  EXPECT_EQ(t.declare(EntityKind::link, "leaf0_spine1_up"), link);  // again: the same entity
  EXPECT_EQ(t.declared().size(), 3u);
  EXPECT_EQ(t.named(cna).name, "cna5");
  EXPECT_EQ(t.named(cna).port, 5);
  EXPECT_EQ(t.kind_of(cna), EntityKind::cna);
  EXPECT_EQ(t.kind_of(port_entity(PortId(639))), EntityKind::port);
  EXPECT_EQ(static_cast<int64_t>(port_entity(PortId(639))), 639);
}

TEST(EntityTable, RefusesANameOfTwoKindsAPortAndAnUnknownId) {
  EntityTable t;
  t.declare(EntityKind::station, "station2", 2);
  EXPECT_THROW(t.declare(EntityKind::switch_, "station2"), std::logic_error);
  EXPECT_THROW(t.declare(EntityKind::station, "station2", 3), std::logic_error);
  EXPECT_THROW(t.declare(EntityKind::port, "port4", 4), std::logic_error);
  EXPECT_THROW(t.named(EntityId(kFirstNamedEntity + 1)), std::logic_error);
  EXPECT_THROW(t.kind_of(EntityId(-1)), std::logic_error);
}

// A name is one place too: a link declared again with other ends is a model error.
TEST(EntityTable, RefusesANameInTwoPlaces) {
  EntityTable t;
  const EntityPlace up = link_place({UnitKind::leaf, 1}, {UnitKind::spine, 3}, Direction::up);
  const EntityId link = t.declare(EntityKind::link, "leaf1_spine3_up", -1, up);
  EXPECT_EQ(t.declare(EntityKind::link, "leaf1_spine3_up", -1, up), link);
  EXPECT_EQ(t.named(link).place, up);
  EXPECT_THROW(t.declare(EntityKind::link, "leaf1_spine3_up"), std::logic_error);
  EXPECT_THROW(t.declare(EntityKind::link, "leaf1_spine3_up", -1,
                         link_place({UnitKind::leaf, 1}, {UnitKind::spine, 3}, Direction::down)),
               std::logic_error);
}

TEST(EntityKinds, EachKindHasOneNameThatReadsBack) {
  for (int k = 0; k < kEntityKinds; ++k) {
    const EntityKind kind = EntityKind(k);
    ASSERT_TRUE(entity_kind_named(kind_name(kind)).has_value()) << kind_name(kind);
    EXPECT_EQ(*entity_kind_named(kind_name(kind)), kind);
  }
  EXPECT_EQ(kind_name(EntityKind::switch_), "switch");
  EXPECT_FALSE(entity_kind_named("spine").has_value());
}

TEST(EntityPlace, KeepsEachEndAndTheDirectionApart) {
  const EntityPlace down = link_place({UnitKind::spine, 3}, {UnitKind::leaf, 1}, Direction::down);
  EXPECT_EQ(down.from->kind, UnitKind::spine);
  EXPECT_EQ(down.to->id, 1);
  EXPECT_EQ(direction_name(down.direction), "down");
  EXPECT_NE(down, link_place({UnitKind::leaf, 1}, {UnitKind::spine, 3}, Direction::down));
  EXPECT_NE(unit_place({UnitKind::port, 6}, Direction::in), unit_place({UnitKind::port, 6}, Direction::out));
  EXPECT_EQ(unit_place({UnitKind::port, 6}).to, std::nullopt);
  EXPECT_EQ(direction_name(Direction::none), "");
  EXPECT_EQ(unit_kind_name(UnitKind::switch_), "switch");
}

}  // namespace
}  // namespace fabric
