// HugePageAdvisor::reserve() grows the heap without making it resident: a
// 4 KiB page left resident anywhere in the advised heap is one that the
// kernel's khugepaged later fills to a whole 2 MiB page while the run goes
// on (memory growing with the run's length, issue 20). ctest runs each test
// in a process of its own, so the malloc settings reserve() makes stay
// here.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "platforms/app/huge_pages.h"

namespace fabric {
namespace {

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

// Resident pages in [begin, end), both page aligned.
size_t resident_pages(uintptr_t begin, uintptr_t end) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core((end - begin) / page);
  if (mincore(reinterpret_cast<void*>(begin), end - begin, in_core.data()) != 0) return SIZE_MAX;
  size_t n = 0;
  for (unsigned char c : in_core) n += c & 1;
  return n;
}

TEST(HugePageAdvisor, ReservationLeavesNoPageResidentInTheGrownHeap) {
  if (std::getenv("FABRICSIM_NO_HUGEPAGES") != nullptr) GTEST_SKIP() << "the advisor is off";
  const uintptr_t before = reinterpret_cast<uintptr_t>(sbrk(0));
  HugePageAdvisor advisor;
  advisor.reserve(size_t{256} << 20);
  const uintptr_t after = reinterpret_cast<uintptr_t>(sbrk(0));
  ASSERT_GE(after - before, size_t{256} << 20) << "the heap was not grown";
  // The heap before the reservation, and the huge page the free space's own
  // header sits in, may be resident; nothing beyond.
  const uintptr_t from = ((before + kHugePage - 1) & ~(kHugePage - 1)) + kHugePage;
  const uintptr_t to = after & ~(kHugePage - 1);
  EXPECT_EQ(resident_pages(from, to), 0u) << "of " << (to - from) / 4096 << " pages";
}

}  // namespace
}  // namespace fabric
