#include "traffic/frame_size.h"

#include <cctype>

#include "model/config/config.h"
#include "traffic/random.h"

namespace fabric::traffic {
namespace {

const char* const kAllowed = "frame sizes 64 .. 9216 B as N, uniform:A:B or choice:A,B,...";

[[noreturn]] void fail(const std::string& key, const std::string& text) {
  throw config::ConfigError(key, text, kAllowed);
}

// Strict decimal size: digits only (surrounding blanks tolerated), within [64, 9216].
uint32_t parse_size(const std::string& key, const std::string& text, std::string part) {
  const auto first = part.find_first_not_of(" \t");
  const auto last = part.find_last_not_of(" \t");
  if (first == std::string::npos) fail(key, text);
  part = part.substr(first, last - first + 1);
  if (part.size() > 6) fail(key, text);
  for (char c : part)
    if (!std::isdigit(static_cast<unsigned char>(c))) fail(key, text);
  const auto value = static_cast<uint32_t>(std::stoul(part));
  if (value < kMinFrameBytes || value > kMaxFrameBytes) fail(key, text);
  return value;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string::size_type begin = 0;
  for (;;) {
    const auto end = text.find(sep, begin);
    parts.push_back(text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}

}  // namespace

FrameSizeDistribution FrameSizeDistribution::parse(const std::string& key, const std::string& text) {
  const std::string uniform = "uniform:", choice = "choice:";
  if (text.compare(0, uniform.size(), uniform) == 0) {
    const auto bounds = split(text.substr(uniform.size()), ':');
    if (bounds.size() != 2) fail(key, text);
    const uint32_t a = parse_size(key, text, bounds[0]);
    const uint32_t b = parse_size(key, text, bounds[1]);
    if (a > b) fail(key, text);
    return a == b ? FrameSizeDistribution(Kind::fixed, {a}) : FrameSizeDistribution(Kind::uniform, {a, b});
  }
  if (text.compare(0, choice.size(), choice) == 0) {
    std::vector<uint32_t> sizes;
    for (const auto& part : split(text.substr(choice.size()), ',')) sizes.push_back(parse_size(key, text, part));
    if (sizes.size() == 1) return FrameSizeDistribution(Kind::fixed, std::move(sizes));
    return FrameSizeDistribution(Kind::choice, std::move(sizes));
  }
  return FrameSizeDistribution(Kind::fixed, {parse_size(key, text, text)});
}

uint32_t FrameSizeDistribution::draw(std::mt19937_64& rng) const {
  switch (kind_) {
    case Kind::fixed: return sizes_[0];
    case Kind::uniform: return sizes_[0] + static_cast<uint32_t>(uniform_below(rng, sizes_[1] - sizes_[0] + 1));
    case Kind::choice: return sizes_[uniform_below(rng, sizes_.size())];
  }
  return sizes_[0];
}

double FrameSizeDistribution::mean() const {
  switch (kind_) {
    case Kind::fixed: return sizes_[0];
    case Kind::uniform: return (double(sizes_[0]) + double(sizes_[1])) / 2.0;
    case Kind::choice: {
      double sum = 0;
      for (uint32_t s : sizes_) sum += s;
      return sum / double(sizes_.size());
    }
  }
  return sizes_[0];
}

std::optional<uint32_t> FrameSizeDistribution::fixed() const {
  if (kind_ == Kind::fixed) return sizes_[0];
  return std::nullopt;
}

std::string FrameSizeDistribution::text() const {
  switch (kind_) {
    case Kind::fixed: return std::to_string(sizes_[0]);
    case Kind::uniform: return "uniform:" + std::to_string(sizes_[0]) + ":" + std::to_string(sizes_[1]);
    case Kind::choice: {
      std::string out = "choice:";
      for (size_t i = 0; i < sizes_.size(); ++i) out += (i ? "," : "") + std::to_string(sizes_[i]);
      return out;
    }
  }
  return {};
}

}  // namespace fabric::traffic
