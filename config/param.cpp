// ParamScope (where Params constructed now declare or read themselves) and
// the text of a derived value in its key's syntax.
#include "config/param.h"

#include "config/param_range.h"

namespace fabric::config {

namespace {
thread_local ParamScope* current_scope = nullptr;
}  // namespace

ParamScope::ParamScope(ParamRegistry& registry) : registry_(&registry), previous_(current_scope) {
  current_scope = this;
}

ParamScope::ParamScope(const Config& config) : config_(&config), previous_(current_scope) { current_scope = this; }

ParamScope::~ParamScope() { current_scope = previous_; }

ParamScope* ParamScope::current() { return current_scope; }

namespace detail {

const Config* bind(ParamSpec&& spec) {
  ParamScope* scope = ParamScope::current();
  if (!scope) return nullptr;
  if (scope->registry()) scope->registry()->declare(std::move(spec));
  return scope->config();
}

void underived(const std::string& key) {
  throw std::logic_error("configuration key '" + key + "' is read before it has a value (an auto key not derived)");
}

}  // namespace detail

std::string Real::text(double v) { return format_real(v); }

std::string Duration::text(Picos v) { return duration_text(v); }

std::string Bytes::text(int64_t v) { return bytes_text(v); }

std::string IntList::text(const std::vector<int64_t>& v) {
  std::string s;
  for (int64_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

}  // namespace fabric::config
