#pragma once
// A replication tree as configuration text (flow.NAME.explicit_tree):
// "PORT:T1,T2,...;PORT:..." lists the local fanout set of the source and of
// each surrogate port used. This is the syntax only; whether the tree is
// legal for a group on a fabric is check_tree's question (explicit_tree()).
#include <string>

#include "config/config.h"
#include "model/multicast/replication_tree.h"

namespace fabric {

// Throws ConfigError naming `key` unless every item is PORT:TARGET,... with
// ports 0 .. 4294967295, at least one target, and each PORT listed once;
// empty items are errors, as is empty text.
TreeFanout parse_tree_fanout(const std::string& key, const std::string& text);
config::TextSyntax tree_fanout_syntax();

}  // namespace fabric
