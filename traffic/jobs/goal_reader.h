#pragma once
// Reads a GOAL text schedule (LogGOPSim's format, spcl/LogGOPSim's txt2bin;
// Schedgen and Schedgen2 write it, and ATLAHS turns application traces into
// it) into a JobSchedule. No SystemC inside.
//
//   num_ranks 4
//   rank 0 {
//   l1: send 64b to 1 tag 7        // [label:] send SIZEb to RANK [tag T] [cpu C] [nic N]
//   l2: recv 64b from 3 tag 7      // [label:] recv SIZEb from RANK [tag T] [cpu C] [nic N]
//   l3: calc 1500                  // [label:] calc TIME [cpu C]   (TIME in calc units)
//   l3 requires l2                 // l3 starts after l2 completes
//   l1 irequires l3                // l1 starts after l3 starts
//   }
//
// One item a line; "//" and "/* */" comments; "\r\n" line ends. Labels are
// local to their rank's block and a dependency names labels defined above it
// in the block (txt2bin resolves a label when it reads the dependency). Tags
// default to 0. A rank without a block has no ops.
//
// `cpu` and `nic` are accepted and ignored: fabricsim gives a rank one NIC
// and does not model the host's cores.
//
// The subset: LogGOPSim matches a recv `from -1` (any source) or `tag -1`
// (any tag) at run time; fabricsim pairs each send with its recv statically,
// so these are refused. Also refused, each a ConfigError naming the key, the
// line's text, what was expected there and "file:line": no num_ranks before
// the first block, a rank block out of range or repeated, a peer out of range
// or the rank itself, an unknown or repeated label, ops that wait for each
// other in a ring (they could never start), a block never closed, an integer
// too large (sizes and times at most 2^63 - 1), anything after an item on its
// line, an item outside a rank block.
//
// The result: algorithm "goal", one RankSchedule per rank with its ops in
// the order of its block, every op in step 0 (steps = 1), no multicast
// groups. Matching sends to recvs is left to the caller.
#include <istream>
#include <string>

#include "model/core/ids.h"
#include "traffic/jobs/job_schedule.h"

namespace fabric::traffic {

// `key` is the configuration key that named the schedule (for messages),
// `origin` the file name; a calc of TIME lasts TIME * calc_unit_ps (the
// default, 1000 ps, is 1 ns: LogGOPSim counts all its times in nanoseconds).
JobSchedule read_goal(std::istream& in, const std::string& key, const std::string& origin, Picos calc_unit_ps = 1000);
// The same from a file; an unreadable file is a ConfigError too.
JobSchedule read_goal_file(const std::string& path, const std::string& key, Picos calc_unit_ps = 1000);

}  // namespace fabric::traffic
