#include "model/multicast/packet_cache.h"

namespace fabric {

std::string describe(const PacketCache::Lookup& l) {
  switch (l.state) {
    case PacketCache::State::miss:
      return "miss";
    case PacketCache::State::hit:
      return "hit (ready at " + std::to_string(l.ready_at) + ")";
    case PacketCache::State::filling:
      return "filling (ready at " + std::to_string(l.ready_at) + ")";
  }
  return "?";
}

std::string describe(const PacketCache::Eviction& e) {
  return "{port " + std::to_string(e.port) + " unit " + std::to_string(e.unit) + ", " + std::to_string(e.copies_left) +
         " copies left}";
}

std::string describe(const PacketCache::PortStats& s) {
  return "{hits " + std::to_string(s.hits) + ", misses " + std::to_string(s.misses) + ", writes " +
         std::to_string(s.writes) + ", premature evictions " + std::to_string(s.premature_evictions) +
         ", background reclaims " + std::to_string(s.background_reclaims) + "}";
}

}  // namespace fabric
