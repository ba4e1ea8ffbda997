#include "traffic/arrival_process.h"

#include <cmath>

namespace fabric::traffic {

Picos ArrivalProcess::draw_phase(double period_ps) {
  const Picos phase = static_cast<Picos>(std::floor(uniform01() * period_ps));
  // uniform01() < 1, but the product may round up to the period itself.
  return phase < period_ps ? phase : static_cast<Picos>(std::ceil(period_ps)) - 1;
}

double ArrivalProcess::gap_ps(double period_ps) {
  switch (arrival_) {
    case Arrival::cbr:
      return period_ps;
    case Arrival::poisson:
      return exponential(period_ps);
    case Arrival::bursty:
      if (burst_left_ > 0) {
        --burst_left_;
        return 0;
      }
      // The next burst: geometric in size (1, 2, ...) with mean kMeanBurst.
      burst_left_ = static_cast<int>(std::floor(std::log1p(-uniform01()) / std::log1p(-1.0 / kMeanBurst)));
      return exponential(period_ps * kMeanBurst);
  }
  return period_ps;
}

}  // namespace fabric::traffic
