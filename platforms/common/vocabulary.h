#pragma once
// The words a platform uses for what its workload sends (Platform::
// vocabulary): the fabric and the backplane send Ethernet frames, the fat
// tree's nodes messages, the ring's stations packets. The run summary, the
// report (analysis/platform_reports.py, its `unit`) and the table tools
// say each platform's word and no other platform's (FabricReport.Vocabulary).
#include <string>

namespace fabric {

struct Vocabulary {
  std::string unit;     // "frame"
  std::string units;    // "frames"
  std::string on_link;  // what the links' data messages are called: frame, packet
};

}  // namespace fabric
