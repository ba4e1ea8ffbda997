#pragma once
// The declared range of a numeric key as its parser sees it, and how it is
// printed. Integer-valued types (integer, duration in ps, bytes in B, the
// elements of an int_list) compare exact int64 bounds: a declared min rounds
// up, a max down, and an undeclared end is the int64 limit. Real-valued types
// (real, rate) compare the declared doubles. Every bound is printed so that
// it parses, as the key's type, back to exactly the bound: a printed bound
// is always accepted.
#include <cstdint>
#include <string>

#include "config/config.h"

namespace fabric::config {

bool is_numeric(ParamType type);
bool is_integer_valued(ParamType type);

struct IntegerBounds {
  int64_t min, max;
};
IntegerBounds integer_bounds(const ParamSpec& spec);

bool in_range(const ParamSpec& spec, int64_t value);  // integer-valued types
bool in_range(const ParamSpec& spec, double value);   // real-valued types

bool is_bounded(const ParamSpec& spec);  // a finite min or max is declared
// The declared bounds with the unit: "1 .. 10000 ps", ">= 0", "<= 10 (MHz)";
// "" when unbounded.
std::string declared_range(const ParamSpec& spec);
// For a value that is not a number of the type or does not fit: integer-valued
// types name both ends (the int64 limits where none is declared).
std::string full_range(const ParamSpec& spec);

// "one of: a, b, c": what a choice key allows.
std::string choices_text(const ParamSpec& spec);

// The shortest decimal text that parses back to exactly `value`.
std::string format_real(double value);

}  // namespace fabric::config
