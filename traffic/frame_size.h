#pragma once
// Frame size distribution of a flow, given in configuration as text:
//   "1522"              fixed size
//   "uniform:64:1522"   uniform integer in [64, 1522]
//   "choice:64,512,1522" each listed size equally likely
// Sizes are Ethernet frame bytes without preamble/IFG, 64 .. 9216 B.
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "config/config.h"

namespace fabric::traffic {

constexpr uint32_t kMinFrameBytes = 64;
constexpr uint32_t kMaxFrameBytes = 9216;

class FrameSizeDistribution {
 public:
  FrameSizeDistribution() : FrameSizeDistribution(Kind::fixed, {1522}) {}

  // Throws fabric::config::ConfigError naming key and text when malformed or out of range.
  static FrameSizeDistribution parse(const std::string& key, const std::string& text);
  static config::TextSyntax syntax();  // parse, for the declaration of a frame size key

  uint32_t draw(std::mt19937_64& rng) const;  // a fixed size consumes no random numbers
  double mean() const;
  uint32_t largest() const;  // the largest size draw() can give
  std::optional<uint32_t> fixed() const;
  std::string text() const;  // canonical spec string; parse(text()) gives the same distribution

 private:
  enum class Kind { fixed, uniform, choice };
  FrameSizeDistribution(Kind kind, std::vector<uint32_t> sizes) : kind_(kind), sizes_(std::move(sizes)) {}

  Kind kind_;
  std::vector<uint32_t> sizes_;  // fixed: {n}; uniform: {a, b}; choice: the listed sizes
};

}  // namespace fabric::traffic
