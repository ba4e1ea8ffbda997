#pragma once
// The keys that choose each multicast block's implementation (leaf.sync.impl,
// leaf.cache.impl) and write the RTL blocks' waveforms (rtl.trace*), declared
// once (config/param.h), with the checks against what this build has: no
// RTL without Verilator, sizes equal to the parameters the blocks were
// verilated with. None of them changes the results: the implementations are
// equivalent, so the database does not depend on them.
#include <string>

#include "config/param.h"

namespace fabric {

struct LeafKeys;
struct LeafParams;

config::ParamSpec block_impl_param(std::string key, const std::string& block);
config::ParamSpec not_in_results(config::ParamSpec spec);
config::TextSyntax trace_path_syntax();

struct RtlBlockKeys {
  config::Param<config::Choice> sync_impl{block_impl_param("leaf.sync.impl", "VOQ sync CAMs")};
  config::Param<config::Choice> cache_impl{block_impl_param("leaf.cache.impl", "multicast packet cache")};
  config::Param<config::Text> trace{not_in_results(config::text_param(
      "rtl.trace", "", "",
      "write the RTL blocks' signals of leaf rtl.trace.leaf to FST files named after this one (FILE.fst: "
      "FILE.cache.fst, FILE.port<k>.sync.fst); empty: none",
      trace_path_syntax()))};
  config::Param<config::Integer> trace_leaf{not_in_results(
      {"rtl.trace.leaf", config::ParamType::integer, "0", "", "the leaf whose RTL blocks rtl.trace writes", 0, 1e6})};
  config::Param<config::Duration> trace_from{not_in_results(
      {"rtl.trace.from", config::ParamType::duration, "0", "ps", "rtl.trace writes from this time on", 0, 1e16})};
  config::Param<config::Duration> trace_until{not_in_results(
      {"rtl.trace.until", config::ParamType::duration, "1s", "ps", "rtl.trace writes up to this time", 0, 1e16})};
};

// Fills p's implementation and trace fields; after the sizes are read.
void read_rtl_block_params(const LeafKeys& keys, LeafParams& p);

// rtl.trace.leaf names a leaf of a fabric of `leaves` leaves.
void check_rtl_trace_leaf(const RtlBlockKeys& k, const LeafParams& p, int leaves);

}  // namespace fabric
