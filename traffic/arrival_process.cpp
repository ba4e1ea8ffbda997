#include "traffic/arrival_process.h"

#include <cmath>

namespace fabric::traffic {

Picos ArrivalProcess::draw_phase(double period_ps) {
  const Picos phase = static_cast<Picos>(std::floor(uniform01() * period_ps));
  // uniform01() < 1, but the product may round up to the period itself.
  return phase < period_ps ? phase : static_cast<Picos>(std::ceil(period_ps)) - 1;
}

double ArrivalProcess::gap_ps(double period_ps) {
  if (arrival_ == Arrival::cbr) return period_ps;
  return -period_ps * std::log1p(-uniform01());  // log of (0, 1]: a finite gap >= 0
}

}  // namespace fabric::traffic
