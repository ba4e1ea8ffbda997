#pragma once
// When a flow's frames are created relative to each other. A real source is
// not phase-aligned with every other source that starts at the same time,
// so a flow's first frame comes at a random phase of its period; after it,
// frames are spaced by their wire time at the flow's rate (cbr), by
// exponential gaps with that mean (poisson), or come in bursts (bursty):
// back to back, a geometric number with mean kMeanBurst, the bursts
// separated by exponential gaps so the mean rate is the flow's.
// Deterministic for a seed; no SystemC.
#include <cstdint>
#include <random>

#include "model/core/ids.h"

namespace fabric::traffic {

enum class Arrival { cbr, poisson, bursty };  // flow.NAME.arrival
constexpr double kMeanBurst = 8;              // frames in a burst, on average (bursty)
enum class StartPhase { random, zero };       // flow.NAME.phase

class ArrivalProcess {
 public:
  ArrivalProcess(Arrival arrival, uint64_t seed) : arrival_(arrival), rng_(seed) {}

  Arrival arrival() const { return arrival_; }

  // The first frame's offset from the flow's start: whole picoseconds,
  // uniform in [0, period_ps).
  Picos draw_phase(double period_ps);

  // From one frame's creation to the next, given that frame's wire time at
  // the flow's rate: exactly period_ps (cbr, draws nothing), or exponential
  // with mean period_ps (poisson), 0 within a burst and exponential with
  // mean kMeanBurst periods before the next (bursty). Not rounded: the
  // caller carries the fraction, so the long-run rate stays exact.
  double gap_ps(double period_ps);

 private:
  // [0, 1) from the top 53 bits: the same on every standard library, which
  // std::uniform_real_distribution does not promise.
  double uniform01() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }

  double exponential(double mean) { return -mean * std::log1p(-uniform01()); }  // log of (0, 1]: finite

  Arrival arrival_;
  std::mt19937_64 rng_;
  int burst_left_ = 0;  // bursty: frames still to come back to back
};

}  // namespace fabric::traffic
