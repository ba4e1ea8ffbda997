#include "model/recording/entity_table.h"

#include <stdexcept>

namespace fabric {

EntityId EntityTable::declare(EntityKind kind, const std::string& name, int64_t port, const EntityPlace& place) {
  if (kind == EntityKind::port)
    throw std::logic_error("entity '" + name + "': a port is named by port_entity(), not declared");
  if (const auto found = by_name_.find(name); found != by_name_.end()) {
    const Entity& e = named(found->second);
    if (e.kind != kind || e.port != port || e.place != place)
      throw std::logic_error("entity '" + name + "' declared as " + std::string(kind_name(e.kind)) + " and again as " +
                             std::string(kind_name(kind)) + " (or with another port or place)");
    return e.id;
  }
  const EntityId id = EntityId(kFirstNamedEntity + static_cast<int64_t>(entities_.size()));
  entities_.push_back({id, kind, name, port, place});
  by_name_.emplace(name, id);
  return id;
}

const Entity& EntityTable::named(EntityId id) const {
  const int64_t index = static_cast<int64_t>(id) - kFirstNamedEntity;
  if (index < 0 || index >= static_cast<int64_t>(entities_.size()))
    throw std::logic_error("entity id " + std::to_string(static_cast<int64_t>(id)) + " was never declared");
  return entities_[static_cast<size_t>(index)];
}

EntityKind EntityTable::kind_of(EntityId id) const {
  if (static_cast<int64_t>(id) >= 0 && static_cast<int64_t>(id) < kFirstNamedEntity) return EntityKind::port;
  return named(id).kind;
}

}  // namespace fabric
