#include "traffic/message_size.h"

#include <cmath>

#include "config/split.h"

namespace fabric::traffic {

namespace {

constexpr const char* kAllowed =
    "a message size: N bytes (B, KB, MB), or exp:MIN:MEAN:CAP (MIN plus an exponential part of mean MEAN, at most "
    "CAP in all; 1 B <= MIN <= CAP <= 1 GB, MEAN > 0)";
constexpr int64_t kLargest = int64_t{1} << 30;

int64_t bytes_of(const std::string& key, const std::string& whole, const std::string& piece) {
  int64_t n;
  try {
    n = config::parse_bytes(key, config::trim(piece));
  } catch (const config::ConfigError&) {
    throw config::ConfigError(key, whole, kAllowed);
  }
  if (n < 1 || n > kLargest) throw config::ConfigError(key, whole, kAllowed);
  return n;
}

}  // namespace

MessageSizeDistribution MessageSizeDistribution::parse(const std::string& key, const std::string& text) {
  const std::string t = config::trim(text);
  if (t.rfind("exp:", 0) != 0) {
    const int64_t n = bytes_of(key, text, t);
    return {static_cast<uint64_t>(n), 0.0, static_cast<uint64_t>(n)};
  }
  const std::vector<std::string> parts = config::split_on(t.substr(4), ':');
  if (parts.size() != 3) throw config::ConfigError(key, text, kAllowed);
  const int64_t minimum = bytes_of(key, text, parts[0]);
  const int64_t mean = bytes_of(key, text, parts[1]);
  const int64_t cap = bytes_of(key, text, parts[2]);
  if (minimum > cap) throw config::ConfigError(key, text, kAllowed);
  return {static_cast<uint64_t>(minimum), static_cast<double>(mean), static_cast<uint64_t>(cap)};
}

config::TextSyntax MessageSizeDistribution::syntax() {
  return config::syntax_of<MessageSizeDistribution::parse>(kAllowed);
}

uint64_t MessageSizeDistribution::draw(std::mt19937_64& rng) const {
  if (exp_mean_ == 0) return minimum_;
  const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // [0, 1)
  const double part = -exp_mean_ * std::log1p(-u);
  const double size = static_cast<double>(minimum_) + std::round(part);
  return size >= static_cast<double>(cap_) ? cap_ : static_cast<uint64_t>(size);
}

double MessageSizeDistribution::mean() const {
  if (exp_mean_ == 0) return static_cast<double>(minimum_);
  // E[min(MIN + X, CAP)] = MIN + E[min(X, CAP - MIN)] = MIN + m (1 - e^-(CAP - MIN)/m), X ~ Exp(mean m)
  // (the drawn part is rounded to whole bytes, which moves the mean by far less than a byte).
  const double room = static_cast<double>(cap_ - minimum_);
  return static_cast<double>(minimum_) + exp_mean_ * (1 - std::exp(-room / exp_mean_));
}

std::string MessageSizeDistribution::text() const {
  if (exp_mean_ == 0) return std::to_string(minimum_);
  return "exp:" + std::to_string(minimum_) + ":" + std::to_string(static_cast<uint64_t>(exp_mean_)) + ":" +
         std::to_string(cap_);
}

}  // namespace fabric::traffic
