#pragma once
// The entities of a run that are not ports, as they are declared: each name
// once, with its kind and place, numbered from kFirstNamedEntity. Plain
// C++: the recorders keep one (a database's is written into `entities`).
#include <string>
#include <unordered_map>
#include <vector>

#include "model/recording/entity.h"
#include "model/recording/entity_place.h"

namespace fabric {

struct Entity {
  EntityId id;
  EntityKind kind;
  std::string name;
  int64_t port = -1;  // the port it is or serves (a CNA's, a station's), -1 for none
  EntityPlace place;  // its ends, or the unit it is or belongs to
};

class EntityTable {
 public:
  // The entity named `name`, declared now if it is new. A name is one
  // entity: declaring it again returns its id, with another kind, port or
  // place throws std::logic_error (a model error), as does a port (ports
  // are port_entity(), from the ports table).
  EntityId declare(EntityKind kind, const std::string& name, int64_t port = -1, const EntityPlace& place = {});
  // A port's kind (port) for ids below kFirstNamedEntity, else the declared
  // entity's; throws std::logic_error for an id never declared.
  EntityKind kind_of(EntityId id) const;
  const Entity& named(EntityId id) const;
  // In the order declared (their ids).
  const std::vector<Entity>& declared() const { return entities_; }

 private:
  std::unordered_map<std::string, EntityId> by_name_;
  std::vector<Entity> entities_;
};

}  // namespace fabric
