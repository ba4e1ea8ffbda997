#include "platforms/app/huge_pages.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

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
  m.anonymous_writable = perms.size() == 4 && perms[0] == 'r' && perms[1] == 'w' && perms[3] == 'p' && inode == "0" &&
                         (file.empty() || file == "[heap]");
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
  // The list is sized first, so that nothing else is allocated between the
  // blocks and, freed, they coalesce into the heap's one free top chunk.
  const size_t block_bytes = kLargestFromHeap / 2;
  std::vector<void*> blocks;
  blocks.reserve(bytes / block_bytes + 1);
  for (size_t grown = 0; grown < bytes; grown += block_bytes) blocks.push_back(malloc(block_bytes));
  const uintptr_t first = reinterpret_cast<uintptr_t>(blocks.front());
  bool adjacent = blocks.front() != nullptr;
  for (size_t i = 1; adjacent && i < blocks.size(); ++i) {
    adjacent = reinterpret_cast<uintptr_t>(blocks[i]) - reinterpret_cast<uintptr_t>(blocks[i - 1]) ==
               block_bytes + 2 * sizeof(size_t);  // each block's chunk header
  }
  for (void* block : blocks) free(block);
  // Those headers left a 4 KiB page resident in every 16 MiB, and khugepaged
  // would fill each such page's 2 MiB around it, one every 10 s of the run
  // (+80 MiB by the end of a 10 ms perm640 run). The free space is one chunk
  // now, its header in the first block's first page: the rest of it goes
  // back to the kernel untouched. (Only when the blocks lay one after the
  // other, as malloc carves them from the top: otherwise live memory could
  // lie between them, and the headers stay.)
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t from = (first + 2 * page - 1) & ~(page - 1);
  const uintptr_t to = reinterpret_cast<uintptr_t>(sbrk(0)) & ~(page - 1);
  if (adjacent && to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
  advise();
}

size_t HugePageAdvisor::mapped_bytes() {
  std::ifstream statm("/proc/self/statm");  // its first field: the address space, in pages
  size_t pages = 0;
  statm >> pages;
  return pages * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

void HugePageAdvisor::advise() {
  if (!enabled_) return;
  advised_at_ = mapped_bytes();
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    const Mapping m = parse_mapping(line);
    if (m.anonymous_writable) advise_range(m.begin, m.end, advised_bytes_);
  }
}

void HugePageAdvisor::keep_up() {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - looked_at_ < std::chrono::seconds(1)) return;
  looked_at_ = now;
  if (mapped_bytes() >= advised_at_ + kRegrowBytes) advise();
}

}  // namespace fabric
