#pragma once
// Lockstep equivalence of two implementations of one block (the C++ model
// and an RTL block, say): every return value and state output of a call is
// compared, and the first difference stops the run with a report that names
// the block, the cycle, the call with its inputs and both outputs.
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/multicast/cycle.h"

namespace fabric {

class LockstepMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class LockstepCheck {
 public:
  // names: of the block ("leaf3 port 2 sync CAM"), and of the two sides.
  LockstepCheck(std::string block, std::string reference, std::string candidate)
      : block_(std::move(block)), reference_(std::move(reference)), candidate_(std::move(candidate)) {}

  // `call` describes the call and its inputs; made only on a mismatch.
  template <class T, class Describe>
  void same(const char* output, const T& ref, const T& cand, Cycle cycle, Describe call) const {
    if (ref == cand) return;
    std::ostringstream why;
    why << "lockstep: " << block_ << ", cycle " << cycle << ", " << call() << ": " << output
        << " differs: " << reference_ << " " << text(ref) << ", " << candidate_ << " " << text(cand);
    throw LockstepMismatch(why.str());
  }

 private:
  template <class T>
  static std::string text(const T& v) {
    std::ostringstream s;
    if constexpr (std::is_same_v<T, bool>) {
      s << (v ? "true" : "false");
    } else if constexpr (std::is_arithmetic_v<T>) {
      s << +v;
    } else {
      s << describe(v);
    }
    return s.str();
  }
  template <class T>
  static std::string text(const std::vector<T>& list) {
    std::string s = "[";
    for (size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + text(list[i]);
    return s + "]";
  }

  std::string block_;
  std::string reference_;
  std::string candidate_;
};

}  // namespace fabric
