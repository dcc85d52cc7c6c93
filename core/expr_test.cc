#include "core/expr.h"

#include <gtest/gtest.h>

namespace arena {
namespace {

TEST(Expression, ArithmeticAndPrecedence) {
  ParameterValues p = {{"n", 10}, {"m", 3}};
  EXPECT_DOUBLE_EQ(*EvaluateExpression("2 * n + m", p), 23);
  EXPECT_DOUBLE_EQ(*EvaluateExpression("2 * (n + m)", p), 26);
  EXPECT_DOUBLE_EQ(*EvaluateExpression("n // m", p), 3);
  EXPECT_DOUBLE_EQ(*EvaluateExpression("n % m", p), 1);
  EXPECT_DOUBLE_EQ(*EvaluateExpression("2 ** 3 ** 2", p), 512);  // right-associative
  EXPECT_DOUBLE_EQ(*EvaluateExpression("-n + 1e3", p), 990);
}

TEST(Expression, Functions) {
  ParameterValues p = {{"n", 1000}};
  EXPECT_DOUBLE_EQ(*EvaluateExpression("ceil_div(n, 128)", p), 8);
  EXPECT_DOUBLE_EQ(*EvaluateExpression("max(1, n, 7)", p), 1000);
  EXPECT_DOUBLE_EQ(*EvaluateExpression("min(n, 7)", p), 7);
  EXPECT_DOUBLE_EQ(*EvaluateExpression("log2(1024) + sqrt(16)", p), 14);
}

TEST(Expression, UnknownParameterNamesColumn) {
  auto r = EvaluateExpression("n * k", {{"n", 1}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("column 5"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("unknown parameter 'k'"), std::string::npos);
}

TEST(Expression, SyntaxErrors) {
  EXPECT_FALSE(EvaluateExpression("n *", {{"n", 1}}).ok());
  EXPECT_FALSE(EvaluateExpression("(n", {{"n", 1}}).ok());
  EXPECT_FALSE(EvaluateExpression("n / 0", {{"n", 1}}).ok());
  EXPECT_FALSE(EvaluateExpression("foo(1)", {}).ok());
  EXPECT_FALSE(EvaluateExpression("ceil_div(1)", {}).ok());
  EXPECT_FALSE(EvaluateExpression("1 2", {}).ok());
}

TEST(Expression, ExtentsMustBeWholeAndNonNegative) {
  EXPECT_EQ(*EvaluateExtent("n / 2", {{"n", 8}}), 4);
  EXPECT_FALSE(EvaluateExtent("n / 3", {{"n", 8}}).ok());
  EXPECT_FALSE(EvaluateExtent("0 - n", {{"n", 8}}).ok());
}

}  // namespace
}  // namespace arena
