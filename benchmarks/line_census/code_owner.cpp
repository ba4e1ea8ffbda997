#include "benchmarks/line_census/code_owner.h"

#include <cxxabi.h>
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace fabric::line_census {

namespace {

// (owner, words in the qualified name), the first match wins: the
// container classes of a unit (a Voq's CircularQueue) count for the unit
// only where the compiler inlined them into its functions.
const std::pair<Owner, std::vector<std::string_view>> kRules[] = {
    {Owner::kScheduler,
     {"TimingWheel", "EventQueue", "EventScheduler", "WorkerPool", "Worker", "Wakeup", "ModelClock", "StopRequest"}},
    {Owner::kRecorder,
     {"Recorder", "Ledger", "ReceivedTotals", "LinkCensus", "EntityTable", "LatencyHistogram", "OccupancyByFlow",
      "LinkTotals"}},
    {Owner::kPools,
     {"BufferPool", "PayloadPool", "FabricMessage", "ControlMessage", "FabricPacket", "Payload", "ToGenericPayload",
      "FromGenericPayload"}},
    {Owner::kCreditRetry,
     {"RetrySender", "GoBackN", "Credit", "Retransmit", "E2eTransport", "ReorderBuffer", "LinkRateWindow",
      "LineRateWindow"}},
    {Owner::kVoq,
     {"Voq", "HeaderAdmission", "LeafIngress", "IngressUnit", "IngressCulprits", "SenderQueue", "HeaderDemand",
      "InputShare"}},
    {Owner::kPortLink, {"TxPort", "RxPort", "Link", "MacPause", "PauseObedience", "TxSource", "RxSink", "HostAdapter"}},
    {Owner::kLeaf,
     {"Leaf", "Egress", "Crossbar", "Multicast", "PacketCache", "CongestionPoint", "Forwarding", "Replication"}},
    {Owner::kSpine, {"Spine", "Spray"}},
    {Owner::kCna,
     {"Cna", "FrameSource", "FabricSender", "FabricReceiver", "ReactionPoint", "traffic::", "Pacer", "Job"}},
};

constexpr size_t kCacheSlots = 1 << 16;
struct CachedPc {
  const void* pc = nullptr;
  Owner owner = Owner::kOther;
};
CachedPc cache[kCacheSlots];

}  // namespace

Owner owner_of_function(std::string_view name) {
  name = name.substr(0, name.find('('));  // the function, not its parameters' types
  for (const auto& [owner, words] : kRules)
    for (std::string_view w : words)
      if (name.find(w) != std::string_view::npos) return owner;
  return Owner::kOther;
}

Owner owner_of_code(const void* pc) {
  CachedPc& c = cache[(reinterpret_cast<uintptr_t>(pc) >> 2) & (kCacheSlots - 1)];
  if (c.pc == pc) return c.owner;
  Owner owner = Owner::kOther;
  Dl_info info;
  if (dladdr(pc, &info) && info.dli_sname) {
    int status = 0;
    char* demangled = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
    owner = owner_of_function(status == 0 && demangled ? demangled : info.dli_sname);
    std::free(demangled);
  }
  c = {pc, owner};
  return owner;
}

}  // namespace fabric::line_census
