#include "model/invariants/delivery_bound.h"

#include <algorithm>
#include <cstdio>

namespace fabric {

Picos DeliveryBound::minimum(PortId src, PortId dst, uint32_t bytes, int levels) const {
  const Picos frame = frame_time(bytes);
  const Picos request_and_grant = waits_for_grant(src, dst, levels) ? 4 * p_.fabric_flight : 0;
  const Picos across = remote(src, dst) ? 2 * p_.fabric_flight : 0;
  return p_.cna_flight + std::max(frame, request_and_grant) + across + frame + p_.cna_flight;
}

std::string DeliveryBound::describe(PortId src, PortId dst, uint32_t bytes, int levels) const {
  char text[320];
  std::snprintf(
      text, sizeof text,
      "bound %.1f ns = CNA cables 2 x %.1f ns + the frame's %u B at the source and at the destination 2 x "
      "%.1f ns%s%s",
      minimum(src, dst, bytes, levels) / 1e3, p_.cna_flight / 1e3, bytes, frame_time(bytes) / 1e3,
      remote(src, dst) ? " + data across 2 leaf-spine cables" : "",
      waits_for_grant(src, dst, levels) ? ", its request and grant across 4 (overlapping the source's frame)" : "");
  return text;
}

}  // namespace fabric
