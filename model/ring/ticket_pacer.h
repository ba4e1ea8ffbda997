#pragma once
// When a station's tickets go (platforms.md, E14, flow control 2a and 2b),
// plain C++. Without flow control a ticket goes as soon as its reservation
// wants one. Exponential back-off holds the n-th retry D0 e^(d n). Delayed
// retry puts retries in a priority queue by (VTS, station), and a permit,
// generated about once per packet inter-arrival time at the current load,
// releases the highest (OfferedRate: the offered load, not what gets
// through); a first attempt waits there too when higher-priority
// tickets already wait or the station's own receive buffers are full. With
// both, a retry waits its back-off and then joins the queue. Permits do not
// pile up: one is kept while nothing waits.
#include <cstdint>
#include <vector>

#include "model/core/ids.h"
#include "model/ring/flow_control.h"
#include "model/ring/offered_rate.h"
#include "model/ring/reservation.h"

namespace fabric::ring {

struct PacerParams {
  bool delayed_retry = false;
  bool backoff = false;
  Picos backoff_d0 = 0;      // D0: the first retry's wait
  double backoff_d = 0.693;  // d
};

class TicketPacer {
 public:
  // `permit_interval`: the expected packet inter-arrival time at the start.
  TicketPacer(const PacerParams& params, Picos permit_interval);

  // A reservation wants a ticket (attempt 1: its first).
  void offer(const Priority& p, int attempt, Picos now, bool own_buffers_full);
  // Tickets that may go at `now` into `out` (cleared first), those whose
  // back-off ended first, then those a permit releases.
  void take_released(Picos now, std::vector<Priority>& out);
  // The same, their VTS only (a station's own tickets).
  std::vector<uint64_t> take_released(Picos now) {
    std::vector<Priority> out;
    take_released(now, out);
    std::vector<uint64_t> vts;
    for (const Priority& p : out) vts.push_back(p.vts);
    return vts;
  }
  // When something waiting may next be released; kNever when nothing waits.
  Picos next_release() const;
  // A packet from the host arrived (a station's): the inter-arrival time
  // is followed, and with it the permits.
  void host_arrival(Picos now) { offered_.arrival(0, now); }
  // A bridge's: a new packet of sender `source`, made by its host at `made`,
  // wants to cross (its voucher arrived).
  void packet_offered(int source, Picos made) { offered_.arrival(source, made); }

  size_t delayed() const { return delayed_.size(); }
  size_t backing_off() const { return backing_off_.size(); }
  Picos permit_interval() const { return static_cast<Picos>(offered_.interval()); }

 private:
  struct Waiting {
    Picos until;
    Priority priority;
    bool then_delayed;  // a retry that joins the delayed queue after its back-off
  };
  void enqueue(const Priority& p);

  PacerParams params_;
  Backoff backoff_;
  OfferedRate offered_;
  Picos next_permit_ = 0;
  std::vector<Waiting> backing_off_;
  std::vector<Priority> delayed_;  // sorted, highest priority (lowest key) first
};

}  // namespace fabric::ring
