#include "platforms/app/huge_pages.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace fabric {
namespace {

#ifndef MADV_COLLAPSE
constexpr int MADV_COLLAPSE = 25;  // Linux 6.1; older headers lack it
#endif

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

struct Mapping {
  uintptr_t begin = 0, end = 0;
  bool anonymous_writable = false;  // private, writable, no file: malloc's heap and arenas
};

// One line of /proc/self/maps: "begin-end perms offset dev inode [path]".
Mapping parse_mapping(const std::string& line) {
  std::istringstream in(line);
  std::string range, perms, offset, device, inode, path;
  in >> range >> perms >> offset >> device >> inode;
  std::getline(in, path);
  Mapping m;
  const size_t dash = range.find('-');
  if (dash == std::string::npos) return m;
  m.begin = std::strtoull(range.c_str(), nullptr, 16);
  m.end = std::strtoull(range.c_str() + dash + 1, nullptr, 16);
  const size_t name = path.find_first_not_of(' ');
  const std::string file = name == std::string::npos ? "" : path.substr(name);
  m.anonymous_writable = perms.size() == 4 && perms[0] == 'r' && perms[1] == 'w' && perms[3] == 'p' &&
                         inode == "0" && (file.empty() || file == "[heap]");
  return m;
}

// The whole huge pages inside [begin, end): the only part a huge page can back.
void advise_range(uintptr_t begin, uintptr_t end, size_t& advised) {
  const uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t last = end & ~(kHugePage - 1);
  if (last <= first) return;
  void* start = reinterpret_cast<void*>(first);
  const size_t length = last - first;
  if (madvise(start, length, MADV_HUGEPAGE) != 0) return;
  madvise(start, length, MADV_COLLAPSE);  // best effort: EINVAL before Linux 6.1, EAGAIN when memory is short
  advised += length;
}

}  // namespace

HugePageAdvisor::HugePageAdvisor() : enabled_(std::getenv("FABRICSIM_NO_HUGEPAGES") == nullptr) {}

void HugePageAdvisor::reserve(size_t bytes) {
  if (!enabled_) return;
  // Requests up to 32 MiB come from the heap, not from mappings of their
  // own, and freed memory at its top stays: the heap is the one region.
  constexpr size_t kLargestFromHeap = size_t{32} << 20;
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kLargestFromHeap));
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  mallopt(M_TOP_PAD, static_cast<int>(kLargestFromHeap));
  // Grow the heap by blocks malloc carves from its top, then give them back:
  // they coalesce into free top space. Only their headers are touched.
  std::vector<void*> blocks;
  for (size_t grown = 0; grown < bytes; grown += kLargestFromHeap / 2) blocks.push_back(malloc(kLargestFromHeap / 2));
  for (void* block : blocks) free(block);
  // Those headers left a 4 KiB page resident in every 16 MiB. The free
  // space is one chunk now, whose header is in the first block's first
  // page: the rest goes back to the kernel untouched, or khugepaged would
  // fill each such page's 2 MiB around it, one every 10 s of the run
  // (+80 MiB by the end of a 10 ms perm640 run).
  if (!blocks.empty()) {
    const uintptr_t first = reinterpret_cast<uintptr_t>(*std::min_element(blocks.begin(), blocks.end()));
    const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const uintptr_t from = (first + 2 * page - 1) & ~(page - 1);
    const uintptr_t to = reinterpret_cast<uintptr_t>(sbrk(0)) & ~(page - 1);
    if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
  }
  advise();
}

size_t HugePageAdvisor::malloc_bytes() {
  const struct mallinfo2 info = mallinfo2();
  return info.arena + info.hblkhd;
}

void HugePageAdvisor::advise() {
  if (!enabled_) return;
  advised_at_ = malloc_bytes();
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    const Mapping m = parse_mapping(line);
    if (m.anonymous_writable) advise_range(m.begin, m.end, advised_bytes_);
  }
}

void HugePageAdvisor::keep_up() {
  if (enabled_ && malloc_bytes() >= advised_at_ + kRegrowBytes) advise();
}

}  // namespace fabric
