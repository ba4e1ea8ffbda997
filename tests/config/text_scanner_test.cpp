// The scanner under every value parser: integers that never wrap or
// overflow silently, lists that never skip an empty item.
#include "config/text_scanner.h"

#include <gtest/gtest.h>

#include "tests/support/config_error_of.h"

namespace fabric::config {
namespace {

using fabric::testing::config_error_of;

std::string syntax_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const SyntaxError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no SyntaxError";
  return "";
}

TEST(TextScanner, IntegersAcrossTheWholeInt64Range) {
  EXPECT_EQ(to_int64("9223372036854775807"), kInt64Max);
  EXPECT_EQ(to_int64("-9223372036854775808"), kInt64Min);
  EXPECT_EQ(to_int64("+7"), 7);
  EXPECT_EQ(to_int64("9223372036854775808"), std::nullopt);
  EXPECT_EQ(to_int64("-9223372036854775809"), std::nullopt);
  EXPECT_EQ(to_int64("99999999999999999999999"), std::nullopt);
  for (const char* junk : {"", "-", "+", " 1", "1 ", "1x", "0x10", "1e3", "--1"}) {
    EXPECT_EQ(to_int64(junk), std::nullopt) << junk;
  }
  EXPECT_EQ(to_uint64("18446744073709551615"), kUint64Max);
  EXPECT_EQ(to_uint64("18446744073709551616"), std::nullopt);
  EXPECT_EQ(to_uint64("-1"), std::nullopt);
}

TEST(TextScanner, ScanIntegerChecksTheRangeAndSaysWhy) {
  EXPECT_EQ(scan_integer(" 64 ", 64, 9216), 64);
  EXPECT_EQ(scan_integer("9216", 64, 9216), 9216);
  EXPECT_EQ(syntax_error_of([] { scan_integer("63", 64, 9216); }), "'63' is outside 64 .. 9216");
  EXPECT_EQ(syntax_error_of([] { scan_integer("99999999999999999999999", 64, 9216); }),
            "'99999999999999999999999' is outside 64 .. 9216");
  EXPECT_EQ(syntax_error_of([] { scan_integer("1.5", 64, 9216); }), "'1.5' is not an integer");
  EXPECT_EQ(syntax_error_of([] { scan_integer("  "); }), "an integer is missing");
  EXPECT_EQ(scan_unsigned("18446744073709551615"), kUint64Max);
  EXPECT_EQ(syntax_error_of([] { scan_unsigned("18446744073709551616"); }),
            "'18446744073709551616' is outside 0 .. 18446744073709551615");
  EXPECT_EQ(syntax_error_of([] { scan_unsigned("4294967296", 4294967295u); }),
            "'4294967296' is outside 0 .. 4294967295");
  EXPECT_EQ(syntax_error_of([] { scan_unsigned("-1"); }), "'-1' is not an integer");
}

TEST(TextScanner, ItemsNeverSkipAnEmptyOne) {
  EXPECT_EQ(scan_items("", ','), std::vector<std::string>{});
  EXPECT_EQ(scan_items("  ", ','), std::vector<std::string>{});
  EXPECT_EQ(scan_items(" a , b ,c", ','), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(syntax_error_of([] { scan_items(",a", ','); }), "item 1 is empty (a leading, trailing or doubled ',')");
  EXPECT_EQ(syntax_error_of([] { scan_items("a,,b", ','); }), "item 2 is empty (a leading, trailing or doubled ',')");
  EXPECT_EQ(syntax_error_of([] { scan_items("a;b; ", ';'); }), "item 3 is empty (a leading, trailing or doubled ';')");
}

TEST(TextScanner, PairsHaveBothSides) {
  const TextPair pair = scan_pair(" leaf0_spine0_up : 12 ", ':');
  EXPECT_EQ(pair.left, "leaf0_spine0_up");
  EXPECT_EQ(pair.right, "12");
  EXPECT_EQ(scan_pair("a:b:c", ':').right, "b:c");  // split at the first
  EXPECT_EQ(syntax_error_of([] { scan_pair("ab", ':'); }), "'ab' has no ':'");
  EXPECT_EQ(syntax_error_of([] { scan_pair(":1", ':'); }), "':1' has nothing before ':'");
  EXPECT_EQ(syntax_error_of([] { scan_pair("a: ", ':'); }), "'a: ' has nothing after ':'");
}

TEST(TextScanner, ParseOrFailNamesKeyValueAllowedAndReason) {
  const ConfigError error =
      config_error_of([] { parse_or_fail("k.list", "1,,2", "a list", [] { return scan_items("1,,2", ','); }); });
  EXPECT_EQ(error.key, "k.list");
  EXPECT_EQ(error.value, "1,,2");
  EXPECT_EQ(error.allowed, "a list -- item 2 is empty (a leading, trailing or doubled ',')");
}

}  // namespace
}  // namespace fabric::config
