#include "core/expr.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace arena {
namespace {

class Parser {
 public:
  Parser(const std::string& text, const ParameterValues& params)
      : text_(text), params_(params) {}

  Result<double> Parse() {
    double v = ParseSum();
    SkipSpace();
    if (error_.empty() && pos_ != text_.size()) Fail("unexpected text");
    if (!error_.empty()) return InvalidArgument(error_);
    if (!std::isfinite(v)) {
      return InvalidArgument("expression '" + text_ + "' is not finite");
    }
    return v;
  }

 private:
  void Fail(const std::string& what) {
    if (!error_.empty()) return;
    error_ = "expression '" + text_ + "', column " + std::to_string(pos_ + 1) +
             ": " + what;
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool Accept(const char* token) {
    SkipSpace();
    size_t n = std::char_traits<char>::length(token);
    if (text_.compare(pos_, n, token) == 0) {
      pos_ += n;
      return true;
    }
    return false;
  }

  double ParseSum() {
    double v = ParseProduct();
    while (error_.empty()) {
      if (Accept("+")) {
        v += ParseProduct();
      } else if (Accept("-")) {
        v -= ParseProduct();
      } else {
        break;
      }
    }
    return v;
  }

  double ParseProduct() {
    double v = ParseUnary();
    while (error_.empty()) {
      SkipSpace();
      if (text_.compare(pos_, 2, "**") == 0) break;  // handled in ParsePower
      if (Accept("//")) {
        double d = ParseUnary();
        if (d == 0) return Fail("division by zero"), 0.0;
        v = std::floor(v / d);
      } else if (Accept("*")) {
        v *= ParseUnary();
      } else if (Accept("/")) {
        double d = ParseUnary();
        if (d == 0) return Fail("division by zero"), 0.0;
        v /= d;
      } else if (Accept("%")) {
        double d = ParseUnary();
        if (d == 0) return Fail("modulo by zero"), 0.0;
        v = std::fmod(v, d);
      } else {
        break;
      }
    }
    return v;
  }

  double ParseUnary() {
    if (Accept("-")) return -ParseUnary();
    if (Accept("+")) return ParseUnary();
    return ParsePower();
  }

  double ParsePower() {
    double base = ParseAtom();
    if (error_.empty() && Accept("**")) {
      double exponent = ParseUnary();  // right-associative
      return std::pow(base, exponent);
    }
    return base;
  }

  double ParseAtom() {
    SkipSpace();
    if (pos_ >= text_.size()) return Fail("expression ends too early"), 0.0;
    char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      double v = ParseSum();
      if (!Accept(")")) Fail("expected ')'");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* begin = text_.c_str() + pos_;
      char* end = nullptr;
      double v = std::strtod(begin, &end);
      if (end == begin) return Fail("bad number"), 0.0;
      pos_ += static_cast<size_t>(end - begin);
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        ++pos_;
      }
      std::string name = text_.substr(start, pos_ - start);
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == '(') {
        ++pos_;
        return CallFunction(name, start);
      }
      auto it = params_.find(name);
      if (it == params_.end()) {
        pos_ = start;
        return Fail("unknown parameter '" + name + "'"), 0.0;
      }
      return it->second;
    }
    return Fail(std::string("unexpected '") + c + "'"), 0.0;
  }

  double CallFunction(const std::string& name, size_t start) {
    std::vector<double> args;
    if (!Accept(")")) {
      do {
        args.push_back(ParseSum());
      } while (error_.empty() && Accept(","));
      if (!Accept(")")) return Fail("expected ')' after arguments"), 0.0;
    }
    auto need = [&](size_t n) {
      if (args.size() != n) {
        pos_ = start;
        Fail(name + "() takes " + std::to_string(n) + " argument(s)");
        return false;
      }
      return true;
    };
    if (name == "min" || name == "max") {
      if (args.empty()) return Fail(name + "() needs arguments"), 0.0;
      double v = args[0];
      for (double a : args) v = name == "min" ? std::min(v, a) : std::max(v, a);
      return v;
    }
    if (name == "ceil_div") {
      if (!need(2)) return 0.0;
      if (args[1] == 0) return Fail("division by zero"), 0.0;
      return std::ceil(args[0] / args[1]);
    }
    if (name == "sqrt") return need(1) ? std::sqrt(args[0]) : 0.0;
    if (name == "log2") return need(1) ? std::log2(args[0]) : 0.0;
    pos_ = start;
    return Fail("unknown function '" + name + "'"), 0.0;
  }

  const std::string& text_;
  const ParameterValues& params_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

Result<double> EvaluateExpression(const std::string& text,
                                  const ParameterValues& params) {
  return Parser(text, params).Parse();
}

Result<long long> EvaluateExtent(const std::string& text,
                                 const ParameterValues& params) {
  ARENA_ASSIGN_OR_RETURN(double v, EvaluateExpression(text, params));
  if (v < 0 || std::floor(v) != v) {
    return InvalidArgument("expression '" + text + "' gives " +
                           std::to_string(v) +
                           ", not a whole number >= 0");
  }
  return static_cast<long long>(v);
}

}  // namespace arena
