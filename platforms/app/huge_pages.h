#pragma once
// Backs the process's heap with transparent huge pages, from inside the
// process. A full-system run touches hundreds of MiB at random, and with
// 4 KiB pages TLB misses cost a sixth of its wall time. The kernel gives
// huge pages to memory advised MADV_HUGEPAGE (when THP is in "madvise"
// mode, the usual default): HugePageAdvisor advises every large anonymous
// mapping of the process and collapses what is already in 4 KiB pages
// (MADV_COLLAPSE, Linux 6.1 and later; skipped where missing).
//
// Use: reserve() before the model is built: the heap is grown once to the
// given size of address space (not memory: nothing is touched) and advised,
// so that every page the model then touches comes as a huge page, as with
// glibc's glibc.malloc.hugetlb=1 tunable, which glibc reads only when a
// process starts. advise() once the model is built (what reserve() did not
// cover), and keep_up() as the run goes: it acts again only when malloc's
// memory has grown.
#include <chrono>
#include <cstddef>

namespace fabric {

class HugePageAdvisor {
 public:
  // FABRICSIM_NO_HUGEPAGES set: the advisor does nothing (for comparisons).
  HugePageAdvisor();

  void reserve(size_t bytes);
  void advise();
  // advise() if the process's address space grew by kRegrowBytes since the
  // last time (new mappings: a malloc arena, large blocks; growth inside the
  // reserved heap needs no advice); looks at most once a wall second.
  // (It read mallinfo2() before, which walks every free list: 1.2 % of
  // perm640's time even once a second.)
  void keep_up();

  // Bytes advised and collapsed so far (for the docs' measurements).
  size_t advised_bytes() const { return advised_bytes_; }

 private:
  static constexpr size_t kRegrowBytes = size_t{64} << 20;
  static size_t mapped_bytes();

  bool enabled_;
  size_t advised_at_ = 0;  // mapped_bytes() at the last advise()
  std::chrono::steady_clock::time_point looked_at_{};
  size_t advised_bytes_ = 0;
};

}  // namespace fabric
