// Arithmetic over a configuration's parameters.
//
// Task files write shapes and cost models as expressions of a configuration's
// numeric parameters, so one line serves every configuration:
//
//   shape: [batch, "n * 4"]
//   cost: {bytes: "2 * batch * n * 2", flops: "batch * n * 8"}
//
//   Result<double> v = EvaluateExpression("ceil_div(n, 128) * 4", {{"n", 1000}});
//
// Grammar: numbers, parameter names, + - * / // % ** (right-associative),
// unary minus, parentheses, and the functions min, max, ceil_div, sqrt, log2.
#ifndef ARENA_CORE_EXPR_H_
#define ARENA_CORE_EXPR_H_

#include <map>
#include <string>

#include "core/status.h"

namespace arena {

using ParameterValues = std::map<std::string, double>;

// Evaluates `text`; an error names the column and the offending token.
Result<double> EvaluateExpression(const std::string& text,
                                  const ParameterValues& params);

// As above, and requires the value to be a whole number >= 0 (for shapes).
Result<long long> EvaluateExtent(const std::string& text,
                                 const ParameterValues& params);

}  // namespace arena

#endif  // ARENA_CORE_EXPR_H_
