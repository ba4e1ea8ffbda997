#include "model/leaf/rtl_block_params.h"

#include <string>
#include <vector>

#include "model/multicast/rtl_blocks.h"

namespace fabric {

namespace {

std::string parse_trace_path(const std::string& key, const std::string& text) {
  const std::string suffix = ".fst";
  if (!text.empty() && (text.size() <= suffix.size() || text.compare(text.size() - suffix.size(), suffix.size(), suffix) != 0))
    throw config::ConfigError(key, text, "a file name ending in .fst, or empty");
  return text;
}

config::ParamSpec not_in_results(config::ParamSpec spec) {
  spec.affects_results = false;  // the implementations are equivalent: the database does not depend on them
  return spec;
}

config::ParamSpec impl_param(std::string key, const std::string& block) {
  config::ParamSpec spec{std::move(key), config::ParamType::choice, "model", "",
                         "implementation of the " + block +
                             ": model (the C++ model), rtl (the verilated RTL block, rtl/README.md) or lockstep (both, "
                             "every call compared; the first difference stops the run, exit 1)"};
  spec.choices = {"model", "rtl", "lockstep"};
  return not_in_results(spec);
}

// A block on RTL needs a build with it, in the size the configuration names.
void check_rtl_size(const config::Config& c, const char* impl_key, const char* size_key, uint32_t configured,
                    const std::vector<uint32_t>& built, const std::string& source) {
  std::string sizes;
  for (uint32_t n : built) {
    if (n == configured) return;
    sizes += (sizes.empty() ? "" : ", ") + std::to_string(n);
  }
  c.fail(size_key, sizes + ": the sizes this build's RTL block (" + source +
                       ") was verilated with (cmake -DFABRICSIM_RTL_..._ENTRIES adds more); or " + impl_key + " = model");
}

}  // namespace

void declare_rtl_block_params(config::ParamRegistry& r) {
  using config::ParamType;
  r.declare(impl_param("leaf.sync.impl", "VOQ sync CAMs"));
  r.declare(impl_param("leaf.cache.impl", "multicast packet cache"));
  r.declare(not_in_results(config::text_param(
      "rtl.trace", "", "",
      "write the RTL blocks' signals of leaf rtl.trace.leaf to FST files named after this one (FILE.fst: "
      "FILE.cache.fst, FILE.port<k>.sync.fst); empty: none",
      config::syntax_of<parse_trace_path>("a file name ending in .fst, or empty"))));
  r.declare(not_in_results({"rtl.trace.leaf", ParamType::integer, "0", "", "the leaf whose RTL blocks rtl.trace writes", 0, 1e6}));
  r.declare(not_in_results({"rtl.trace.from", ParamType::duration, "0", "ps", "rtl.trace writes from this time on", 0, 1e16}));
  r.declare(not_in_results({"rtl.trace.until", ParamType::duration, "1s", "ps", "rtl.trace writes up to this time", 0, 1e16}));
}

void read_rtl_block_params(const config::Config& c, LeafParams& p) {
  p.sync_impl = block_impl_from(c.get_choice("leaf.sync.impl"));
  p.cache_impl = block_impl_from(c.get_choice("leaf.cache.impl"));
  const bool sync_rtl = p.sync_enabled && p.sync_impl != BlockImpl::model;
  const bool cache_rtl = p.cache_enabled && p.cache_impl != BlockImpl::model;
  if (p.sync_impl != BlockImpl::model && !rtl::available()) c.fail("leaf.sync.impl", "model (" + rtl::unavailable_reason() + ")");
  if (p.cache_impl != BlockImpl::model && !rtl::available()) c.fail("leaf.cache.impl", "model (" + rtl::unavailable_reason() + ")");
  if (sync_rtl) check_rtl_size(c, "leaf.sync.impl", "leaf.sync.entries", p.sync_entries, rtl::sync_cam_sizes(), rtl::sync_cam_source());
  if (cache_rtl) {
    check_rtl_size(c, "leaf.cache.impl", "leaf.cache.entries", p.cache_entries, rtl::packet_cache_sizes(), rtl::packet_cache_source());
    check_rtl_size(c, "leaf.cache.impl", "leaf.cache.mirrors", p.cache_mirrors, {rtl::packet_cache_mirrors()}, rtl::packet_cache_source());
  }
  p.rtl_trace = parse_trace_path("rtl.trace", c.get_text("rtl.trace"));
  p.rtl_trace_leaf = static_cast<int>(c.get_int("rtl.trace.leaf"));
  p.rtl_trace_from_ps = c.get_duration("rtl.trace.from");
  p.rtl_trace_until_ps = c.get_duration("rtl.trace.until");
  if (!p.rtl_trace.empty() && !sync_rtl && !cache_rtl)
    c.fail("rtl.trace", "empty (no block runs as RTL: set leaf.sync.impl or leaf.cache.impl to rtl or lockstep)");
}

}  // namespace fabric
