#pragma once
// The one rule for the name of a database a run is kept in, for every path
// fabricsim or the sweep runner (through `fabricsim --check-db`) opens to
// write: SQLite takes some names for databases that vanish with the process
// or are not files at all, and a run written there would report "done" and
// be gone.
#include <optional>
#include <string>

namespace fabric::db {

// The longest path the system opens (PATH_MAX on Linux).
constexpr size_t kLongestDatabasePath = 4096;

// Why `path` cannot keep a run, in words a user can act on; nullopt when it
// can. Refused: an empty name (a temporary database), ":memory:", a URI
// ("file:..." as SQLite reads it: file::memory:, ?mode=memory ...), a
// directory, and a path longer than the system opens.
std::optional<std::string> database_path_problem(const std::string& path);

// "--db has value 'PATH': WHY; allowed: ..." (PATH shortened when long):
// the message for a path database_path_problem refuses.
std::string database_path_message(const std::string& option, const std::string& path, const std::string& why);

}  // namespace fabric::db
