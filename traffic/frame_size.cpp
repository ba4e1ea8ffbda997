#include "traffic/frame_size.h"

#include <algorithm>
#include "config/text_scanner.h"
#include "traffic/random.h"

namespace fabric::traffic {
namespace {

const std::string kAllowed = "N, uniform:A:B (A <= B) or choice:A,B,... with sizes " + std::to_string(kMinFrameBytes) +
                             " .. " + std::to_string(kMaxFrameBytes) + " (B)";

uint32_t scan_size(const std::string& text) {
  return static_cast<uint32_t>(config::scan_integer(text, kMinFrameBytes, kMaxFrameBytes));
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

FrameSizeDistribution FrameSizeDistribution::parse(const std::string& key, const std::string& text) {
  const std::string uniform = "uniform:", choice = "choice:";
  return config::parse_or_fail(key, text, kAllowed, [&] {
    if (starts_with(text, uniform)) {
      const config::TextPair bounds = config::scan_pair(text.substr(uniform.size()), ':');
      const uint32_t a = scan_size(bounds.left), b = scan_size(bounds.right);
      if (a > b)
        throw config::SyntaxError("the uniform range " + std::to_string(a) + " .. " + std::to_string(b) + " is empty");
      return a == b ? FrameSizeDistribution(Kind::fixed, {a}) : FrameSizeDistribution(Kind::uniform, {a, b});
    }
    if (starts_with(text, choice)) {
      std::vector<uint32_t> sizes;
      for (const std::string& item : config::scan_items(text.substr(choice.size()), ','))
        sizes.push_back(scan_size(item));
      if (sizes.empty()) throw config::SyntaxError("no size to choose from");
      if (sizes.size() == 1) return FrameSizeDistribution(Kind::fixed, std::move(sizes));
      return FrameSizeDistribution(Kind::choice, std::move(sizes));
    }
    return FrameSizeDistribution(Kind::fixed, {scan_size(text)});
  });
}

config::TextSyntax FrameSizeDistribution::syntax() { return config::syntax_of<FrameSizeDistribution::parse>(kAllowed); }

uint32_t FrameSizeDistribution::draw(std::mt19937_64& rng) const {
  switch (kind_) {
    case Kind::fixed:
      return sizes_[0];
    case Kind::uniform:
      return sizes_[0] + static_cast<uint32_t>(uniform_below(rng, sizes_[1] - sizes_[0] + 1));
    case Kind::choice:
      return sizes_[uniform_below(rng, sizes_.size())];
  }
  return sizes_[0];
}

double FrameSizeDistribution::mean() const {
  switch (kind_) {
    case Kind::fixed:
      return sizes_[0];
    case Kind::uniform:
      return (double(sizes_[0]) + double(sizes_[1])) / 2.0;
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
    case Kind::fixed:
      return std::to_string(sizes_[0]);
    case Kind::uniform:
      return "uniform:" + std::to_string(sizes_[0]) + ":" + std::to_string(sizes_[1]);
    case Kind::choice: {
      std::string out = "choice:";
      for (size_t i = 0; i < sizes_.size(); ++i) out += (i ? "," : "") + std::to_string(sizes_[i]);
      return out;
    }
  }
  return {};
}

uint32_t FrameSizeDistribution::largest() const { return *std::max_element(sizes_.begin(), sizes_.end()); }

}  // namespace fabric::traffic
