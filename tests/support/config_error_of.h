#pragma once
// The ConfigError a call throws, for asserting on its key, value and allowed
// text; a test failure when it throws none.
#include <gtest/gtest.h>

#include "config/config.h"

namespace fabric::testing {

template <typename F>
config::ConfigError config_error_of(F&& f) {
  try {
    f();
  } catch (const config::ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no ConfigError";
  return config::ConfigError("", "", "");
}

}  // namespace fabric::testing
