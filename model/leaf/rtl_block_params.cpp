#include "model/leaf/rtl_block_params.h"

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "model/leaf/leaf_params.h"
#include "model/multicast/rtl_blocks.h"

namespace fabric {

namespace {

std::string parse_trace_path(const std::string& key, const std::string& text) {
  const std::string suffix = ".fst";
  if (!text.empty() &&
      (text.size() <= suffix.size() || text.compare(text.size() - suffix.size(), suffix.size(), suffix) != 0))
    throw config::ConfigError(key, text, "a file name ending in .fst, or empty");
  return text;
}

// A block on RTL needs a build with it, in the size the configuration names.
template <class SizeKey>
void check_rtl_size(const char* impl_key, const SizeKey& size_key, uint32_t configured,
                    const std::vector<uint32_t>& built, const std::string& source) {
  std::string sizes;
  for (uint32_t n : built) {
    if (n == configured) return;
    sizes += (sizes.empty() ? "" : ", ") + std::to_string(n);
  }
  size_key.fail(sizes + ": the sizes this build's RTL block (" + source +
                ") was verilated with (cmake -DFABRICSIM_RTL_..._ENTRIES adds more); or " + impl_key + " = model");
}

// Why the waveform files next to `path` cannot be written, or "".
std::string trace_directory_problem(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path file(path);
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) return "'" + dir.string() + "' is not a directory";
  if (fs::is_directory(file, ec)) return "'" + path + "' is a directory";
  return "";
}

}  // namespace

config::ParamSpec not_in_results(config::ParamSpec spec) {
  spec.affects_results = false;  // the implementations are equivalent: the database does not depend on them
  return spec;
}

config::ParamSpec block_impl_param(std::string key, const std::string& block) {
  config::ParamSpec spec{std::move(key), config::ParamType::choice, "model", "",
                         "implementation of the " + block +
                             ": model (the C++ model), rtl (the verilated RTL block, rtl/README.md) or lockstep (both, "
                             "every call compared; the first difference stops the run, exit 1)"};
  spec.choices = {"model", "rtl", "lockstep"};
  return not_in_results(spec);
}

config::TextSyntax trace_path_syntax() {
  return config::syntax_of<parse_trace_path>("a file name ending in .fst, or empty");
}

void read_rtl_block_params(const LeafKeys& leaf, LeafParams& p) {
  const RtlBlockKeys& k = leaf.rtl;
  p.sync_impl = block_impl_from(k.sync_impl);
  p.cache_impl = block_impl_from(k.cache_impl);
  const bool sync_rtl = p.sync_enabled && p.sync_impl != BlockImpl::model;
  const bool cache_rtl = p.cache_enabled && p.cache_impl != BlockImpl::model;
  if (p.sync_impl != BlockImpl::model && !rtl::available())
    k.sync_impl.fail("model (" + rtl::unavailable_reason() + ")");
  if (p.cache_impl != BlockImpl::model && !rtl::available())
    k.cache_impl.fail("model (" + rtl::unavailable_reason() + ")");
  const std::string sync_fault = sync_rtl ? rtl::sync_cam_fault() : "";
  const std::string cache_fault = cache_rtl ? rtl::packet_cache_fault() : "";
  if (!sync_fault.empty()) k.sync_impl.fail("model (" + sync_fault + ")");
  if (!cache_fault.empty()) k.cache_impl.fail("model (" + cache_fault + ")");
  if (sync_rtl)
    check_rtl_size("leaf.sync.impl", leaf.sync_entries, p.sync_entries, rtl::sync_cam_sizes(), rtl::sync_cam_source());
  if (cache_rtl) {
    check_rtl_size("leaf.cache.impl", leaf.cache_entries, p.cache_entries, rtl::packet_cache_sizes(),
                   rtl::packet_cache_source());
    check_rtl_size("leaf.cache.impl", leaf.cache_mirrors, p.cache_mirrors, {rtl::packet_cache_mirrors()},
                   rtl::packet_cache_source());
  }
  p.rtl_trace = k.trace.value();
  p.rtl_trace_leaf = static_cast<int>(k.trace_leaf.value());
  p.rtl_trace_from_ps = k.trace_from;
  p.rtl_trace_until_ps = k.trace_until;
  if (p.rtl_trace.empty()) {
    const auto unused = [](const auto& window) {
      if (window.given()) window.fail("its default (rtl.trace is empty: no waveform is written)");
    };
    unused(k.trace_leaf);
    unused(k.trace_from);
    unused(k.trace_until);
    return;
  }
  if (!sync_rtl && !cache_rtl)
    k.trace.fail("empty (no block runs as RTL: set leaf.sync.impl or leaf.cache.impl to rtl or lockstep)");
  if (const std::string problem = trace_directory_problem(p.rtl_trace); !problem.empty())
    k.trace.fail("a file name ending in .fst in a directory that exists (" + problem + ")");
  if (p.rtl_trace_from_ps >= p.rtl_trace_until_ps)
    k.trace_until.fail("a time after rtl.trace.from (" + std::to_string(p.rtl_trace_from_ps) + " ps)");
}

void check_rtl_trace_leaf(const RtlBlockKeys& k, const LeafParams& p, int leaves) {
  if (!p.rtl_trace.empty() && p.rtl_trace_leaf >= leaves)
    k.trace_leaf.fail("a leaf of this fabric, 0 .. " + std::to_string(leaves - 1));
}

}  // namespace fabric
