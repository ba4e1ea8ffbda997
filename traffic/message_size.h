#pragma once
// Application messages larger than a frame (platforms.md, E12): a size
// distribution given in configuration as text, and the frames a message is
// sent as, back to back.
//   "8000"               fixed size in bytes (B|KB|MB suffixes as for bytes keys)
//   "exp:48:7KB:85KB"    48 B plus an exponential part of mean 7 KB, the
//                        total capped at 85 KB
// Portable: the exponential part is drawn by inverting its distribution from
// the run's own generator, so a seed gives the same messages everywhere.
#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "config/config.h"

namespace fabric::traffic {

class MessageSizeDistribution {
 public:
  // Throws config::ConfigError naming key and text when malformed or out of range.
  static MessageSizeDistribution parse(const std::string& key, const std::string& text);
  static config::TextSyntax syntax();

  uint64_t draw(std::mt19937_64& rng) const;  // a fixed size consumes no random numbers
  // The mean of draw(): the capped exponential's, exactly.
  double mean() const;
  uint64_t cap() const { return cap_; }
  // The size, when every message has the same.
  std::optional<uint64_t> fixed() const { return exp_mean_ == 0 ? std::optional<uint64_t>(minimum_) : std::nullopt; }
  std::string text() const;

 private:
  MessageSizeDistribution(uint64_t minimum, double exp_mean, uint64_t cap)
      : minimum_(minimum), exp_mean_(exp_mean), cap_(cap) {}
  uint64_t minimum_;
  double exp_mean_;  // 0: fixed at minimum_
  uint64_t cap_;
};

// The frames of one message: each carries at most `max_payload` bytes of it
// plus `overhead` bytes (header and FCS), and is at least `min_frame` bytes.
class MessageFrames {
 public:
  MessageFrames(uint64_t message_bytes, uint32_t max_payload, uint32_t overhead, uint32_t min_frame)
      : left_(message_bytes), max_payload_(max_payload), overhead_(overhead), min_frame_(min_frame) {}
  bool done() const { return left_ == 0; }
  // The next frame's bytes (a message of 0 bytes has none).
  uint32_t next() {
    const uint32_t payload = static_cast<uint32_t>(left_ < max_payload_ ? left_ : max_payload_);
    left_ -= payload;
    const uint32_t frame = payload + overhead_;
    return frame < min_frame_ ? min_frame_ : frame;
  }
  uint64_t bytes_left() const { return left_; }

 private:
  uint64_t left_;
  uint32_t max_payload_;
  uint32_t overhead_;
  uint32_t min_frame_;
};

}  // namespace fabric::traffic
