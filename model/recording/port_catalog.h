#pragma once
// Where a run's ports are described before it starts (the database's ports
// table): each port, its leaf, its kind and its place in the racks. A
// platform fills it (PlatformRun::describe_ports); db::SqliteRecorder is
// one, so that the platform interface does not name the database.
#include <cstdint>
#include <string>

namespace fabric {

class PortCatalog {
 public:
  virtual ~PortCatalog() = default;
  virtual void add_port(int64_t port_id, int64_t leaf_id, const std::string& kind, int rack, int chassis, int cie) = 0;
};

}  // namespace fabric
