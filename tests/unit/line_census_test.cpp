// The counting build's pieces that are plain C++ (benchmarks/line_census/):
// the set of lines a turn touched, emptied in O(1) and growing, and the
// owner a function's qualified name maps to (issue 56, step 1).
#include <gtest/gtest.h>

#include "benchmarks/line_census/code_owner.h"
#include "benchmarks/line_census/line_set.h"

namespace fabric::line_census {
namespace {

TEST(LineSet, CountsEachLineOnceAndEmptiesBetweenTurns) {
  LineSet lines(4);  // 16 slots: grows past 8 lines
  for (uint64_t line = 0; line < 1000; ++line) EXPECT_TRUE(lines.insert(line * 977));
  for (uint64_t line = 0; line < 1000; ++line) EXPECT_FALSE(lines.insert(line * 977));
  EXPECT_EQ(lines.size(), 1000u);
  lines.clear();
  EXPECT_EQ(lines.size(), 0u);
  EXPECT_TRUE(lines.insert(977));  // a line of the last turn is new in this one
  EXPECT_FALSE(lines.insert(977));
  EXPECT_EQ(lines.size(), 1u);
}

TEST(CodeOwner, TheModelsClassesMapToTheOwnersTheIssueNames) {
  EXPECT_EQ(owner_of_function("fabric::TimingWheel::advance(long)"), Owner::kScheduler);
  EXPECT_EQ(owner_of_function("fabric::EventQueue::serve_before(long)"), Owner::kScheduler);
  EXPECT_EQ(owner_of_function("fabric::PartitionedRecorder::sample(long, unsigned int, double)"), Owner::kRecorder);
  EXPECT_EQ(owner_of_function("fabric::BufferPool<fabric::Payload>::take()"), Owner::kPools);
  EXPECT_EQ(owner_of_function("fabric::RetrySender::acknowledge(unsigned int)"), Owner::kCreditRetry);
  EXPECT_EQ(owner_of_function("fabric::Voq::push(fabric::QueuedFrame const&)"), Owner::kVoq);
  EXPECT_EQ(owner_of_function("fabric::TxPort::schedule(long)"), Owner::kPortLink);
  EXPECT_EQ(owner_of_function("fabric::LeafEgress::take_ready(long)"), Owner::kLeaf);
  EXPECT_EQ(owner_of_function("fabric::Spine::receive(fabric::FabricPacket*)"), Owner::kSpine);
  EXPECT_EQ(owner_of_function("fabric::Cna::generate(long)"), Owner::kCna);
  EXPECT_EQ(owner_of_function("std::vector<int, std::allocator<int> >::_M_realloc_insert(int&&)"), Owner::kOther);
}

}  // namespace
}  // namespace fabric::line_census
