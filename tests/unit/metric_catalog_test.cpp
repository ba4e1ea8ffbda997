// The metric catalog (issue 40): one definition per name, with a unit, a
// kind and a meaning; a family's members found by the family; the recorder
// refuses a metric with no definition.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/recording/metric_catalog.h"

namespace fabric {
namespace {

TEST(MetricCatalog, EachNameOnceWithAUnitAndAMeaning) {
  std::set<std::string_view> names;
  for (const MetricDefinition& m : metric_catalog()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name << " is defined twice";
    EXPECT_FALSE(m.unit.empty()) << m.name;
    EXPECT_FALSE(m.platforms.empty()) << m.name;
    EXPECT_FALSE(m.entity.empty()) << m.name;
    EXPECT_FALSE(m.description.empty()) << m.name;
  }
  EXPECT_GT(names.size(), 50u);
}

// The entity field lists kinds of entity.h, each spelt as the database spells it.
TEST(MetricCatalog, EachMetricIsForKnownKindsOfEntity) {
  for (const MetricDefinition& m : metric_catalog()) {
    int kinds = 0;
    for (int k = 0; k < kEntityKinds; ++k) kinds += allows(m, EntityKind(k)) ? 1 : 0;
    EXPECT_GE(kinds, 1) << m.name << ": " << m.entity;
    size_t names = 1;
    for (const char c : m.entity) names += c == ',' ? 1 : 0;
    EXPECT_EQ(static_cast<size_t>(kinds), names) << m.name << ": '" << m.entity << "' names a kind that is not one";
  }
  EXPECT_TRUE(allows(*find_metric("utilization"), EntityKind::segment));
  EXPECT_TRUE(allows(*find_metric("utilization"), EntityKind::link));
  EXPECT_FALSE(allows(*find_metric("utilization"), EntityKind::port));
  EXPECT_FALSE(allows(*find_metric("link_messages_credit"), EntityKind::link));
}

TEST(MetricCatalog, FindsNamesAndFamilyMembersOnly) {
  ASSERT_NE(find_metric("ingress_bytes"), nullptr);
  EXPECT_EQ(find_metric("ingress_bytes")->unit, "B");
  EXPECT_EQ(find_metric("ingress_bytes")->kind, MetricKind::series);
  ASSERT_NE(find_metric("link_messages_link_ack"), nullptr);
  EXPECT_EQ(find_metric("link_messages_link_ack")->name, "link_messages_<kind>");
  EXPECT_EQ(find_metric("link_messages")->name, "link_messages");
  EXPECT_EQ(find_metric("utilisation"), nullptr);  // one spelling: utilization
  EXPECT_EQ(find_metric("attempts"), nullptr);     // the ring's are tickets
  EXPECT_EQ(find_metric(""), nullptr);
  EXPECT_EQ(find_metric("link_"), nullptr);
}

TEST(MetricCatalog, TheMarkdownTableHasARowPerMetric) {
  const std::string table = metric_table_markdown();
  size_t rows = 0;
  for (size_t at = table.find('\n'); at != std::string::npos; at = table.find('\n', at + 1)) ++rows;
  EXPECT_EQ(rows, metric_catalog().size() + 2);  // header and rule
  EXPECT_NE(table.find("| `link_messages_<kind>` | messages | total | all |"), std::string::npos);
}

}  // namespace
}  // namespace fabric
