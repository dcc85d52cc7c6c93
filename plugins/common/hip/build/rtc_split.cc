#include "plugins/common/hip/build/rtc_split.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace arena::hip2hip {
namespace {

enum class Kind { kSpace, kComment, kPreproc, kString, kChar, kIdent, kNumber, kPunct };

struct Token {
  Kind kind;
  std::string text;
  int line;
};

bool Significant(const Token& t) {
  return t.kind != Kind::kSpace && t.kind != Kind::kComment && t.kind != Kind::kPreproc;
}

Result<std::vector<Token>> Lex(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  int line = 1;
  bool line_start = true;
  auto push = [&](Kind k, size_t begin) {
    Token t{k, s.substr(begin, i - begin), line};
    for (char c : t.text) line += c == '\n';
    out.push_back(std::move(t));
  };
  while (i < s.size()) {
    const size_t begin = i;
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) {
        if (s[i] == '\n') line_start = true;
        ++i;
      }
      push(Kind::kSpace, begin);
      continue;
    }
    if (c == '#' && line_start) {
      while (i < s.size() && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
        ++i;
      }
      push(Kind::kPreproc, begin);
      continue;
    }
    line_start = false;
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      push(Kind::kComment, begin);
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      if (end == std::string::npos)
        return InvalidArgument("line " + std::to_string(line) + ": unterminated comment");
      i = end + 2;
      push(Kind::kComment, begin);
    } else if (c == 'R' && i + 1 < s.size() && s[i + 1] == '"') {
      const size_t open = s.find('(', i + 2);
      if (open == std::string::npos)
        return InvalidArgument("line " + std::to_string(line) + ": bad raw string");
      const std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
      const size_t end = s.find(close, open);
      if (end == std::string::npos)
        return InvalidArgument("line " + std::to_string(line) + ": unterminated raw string");
      i = end + close.size();
      push(Kind::kString, begin);
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < s.size() && s[i] != c && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
      if (i >= s.size() || s[i] != c)
        return InvalidArgument("line " + std::to_string(line) + ": unterminated literal");
      ++i;
      push(c == '"' ? Kind::kString : Kind::kChar, begin);
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      push(Kind::kIdent, begin);
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < s.size() &&
                std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      while (i < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '\'' ||
              ((s[i] == '+' || s[i] == '-') &&
               (s[i - 1] == 'e' || s[i - 1] == 'E' || s[i - 1] == 'p' || s[i - 1] == 'P')))) {
        ++i;
      }
      push(Kind::kNumber, begin);
    } else if (s.compare(i, 3, "<<<") == 0 || s.compare(i, 3, ">>>") == 0) {
      i += 3;
      push(Kind::kPunct, begin);
    } else if (s.compare(i, 2, "::") == 0) {
      i += 2;
      push(Kind::kPunct, begin);
    } else {
      ++i;
      push(Kind::kPunct, begin);
    }
  }
  return out;
}

// One top-level definition or declaration: tokens [begin, end).
enum class Role { kBoth, kHostOnly, kDeviceOnly, kKernel };

struct Item {
  size_t begin, end;
  Role role;
  size_t body = 0;  // a function's '{' (kKernel: emptied on the host side)
};

class Splitter {
 public:
  explicit Splitter(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  Result<RtcSplit> Run() {
    // What names a kernel by its host stub's address beyond a launch, or a
    // device variable from the host: only a compiler that builds both sides
    // at once can resolve them.
    static const std::set<std::string> kWholeProgram = {
        "hipFuncSetAttribute",
        "hipFuncGetAttributes",
        "hipFuncGetAttribute",
        "hipFuncSetCacheConfig",
        "hipFuncSetSharedMemConfig",
        "hipLaunchKernel",
        "hipLaunchCooperativeKernel",
        "hipOccupancyMaxActiveBlocksPerMultiprocessor",
        "hipOccupancyMaxPotentialBlockSize",
        "hipMemcpyToSymbol",
        "hipMemcpyFromSymbol",
        "hipMemcpyToSymbolAsync",
        "hipMemcpyFromSymbolAsync",
        "hipGetSymbolAddress",
        "hipGetSymbolSize",
        "hipGraphAddKernelNode",
        "hipModuleLoad",
        "hipModuleLoadData"};
    for (const Token& tok : t_) {
      if (tok.kind == Kind::kPunct && tok.text == "<<<") {
        return InvalidArgument(
            "line " + std::to_string(tok.line) +
            ": a triple-chevron launch (runtime compilation takes hipLaunchKernelGGL)");
      }
      if (tok.kind == Kind::kIdent && kWholeProgram.count(tok.text)) {
        return InvalidArgument("line " + std::to_string(tok.line) + ": " + tok.text +
                               " needs the whole program built at once");
      }
    }
    std::vector<Item> items;
    size_t i = 0;
    int transparent = 0;  // open namespace / extern "C" blocks
    while (i < t_.size()) {
      if (!Significant(t_[i])) {
        items.push_back({i, i + 1, Role::kBoth});
        ++i;
        continue;
      }
      if (t_[i].text == "}" && transparent > 0) {
        --transparent;
        items.push_back({i, i + 1, Role::kBoth});
        ++i;
        continue;
      }
      // A declaration runs to its ';' or to its '{' at depth 0.
      size_t j = i;
      int parens = 0;
      bool has_paren = false, has_assign = false;
      std::set<std::string> words;
      const std::string first = t_[i].text;
      for (; j < t_.size(); ++j) {
        const Token& tok = t_[j];
        if (tok.kind == Kind::kPreproc) {
          if (IsConditional(tok.text)) {
            return InvalidArgument("line " + std::to_string(tok.line) +
                                   ": a preprocessor conditional inside a declaration");
          }
          continue;
        }
        if (!Significant(tok)) continue;
        if (tok.kind == Kind::kIdent) words.insert(tok.text);
        if (tok.text == "(") {
          if (parens == 0 && !has_assign) has_paren = true;
          ++parens;
        } else if (tok.text == ")") {
          --parens;
        } else if (tok.text == "=" && parens == 0) {
          has_assign = true;
        } else if (parens == 0 && (tok.text == ";" || tok.text == "{")) {
          break;
        }
      }
      if (j >= t_.size())
        return InvalidArgument("line " + std::to_string(t_[i].line) + ": unterminated declaration");
      if (t_[j].text == ";") {
        items.push_back({i, j + 1, DeclarationRole(first, words, has_paren, has_assign)});
        i = j + 1;
        continue;
      }
      // '{': a transparent block, a type, an initializer or a function body.
      const bool extern_block =
          first == "extern" && Previous(j) > i && t_[Previous(j)].kind == Kind::kString;
      if (first == "namespace" || (first == "inline" && words.count("namespace")) || extern_block) {
        ++transparent;
        items.push_back({i, j + 1, Role::kBoth});
        i = j + 1;
        continue;
      }
      ARENA_ASSIGN_OR_RETURN(size_t close, Matching(j));
      const bool type = !has_paren && (words.count("struct") || words.count("class") ||
                                       words.count("union") || words.count("enum"));
      if (type || has_assign || !has_paren) {
        // Runs on to its ';' (a type, or a variable with an initializer).
        size_t end = close + 1;
        while (end < t_.size() && !(Significant(t_[end]) && t_[end].text == ";")) ++end;
        if (end >= t_.size())
          return InvalidArgument("line " + std::to_string(t_[j].line) +
                                 ": no ';' after a definition");
        items.push_back({i, end + 1, type ? Role::kBoth : VariableRole(words)});
        i = end + 1;
        continue;
      }
      Role role = Role::kHostOnly;
      if (words.count("__global__")) {
        role = Role::kKernel;
      } else if (words.count("__device__")) {
        role = words.count("__host__") ? Role::kBoth : Role::kDeviceOnly;
      }
      if (role == Role::kHostOnly || role == Role::kBoth) {
        ARENA_RETURN_IF_ERROR(CollectLaunches(j, close));
      }
      items.push_back({i, close + 1, role, j});
      i = close + 1;
    }
    // A launch the split did not read (in a class's member function, or
    // inside a macro of the source's own) would find no module function at
    // run time.
    int launches = 0;
    for (const Token& tok : t_) {
      if (tok.kind == Kind::kPreproc && tok.text.find("hipLaunchKernelGGL") != std::string::npos) {
        return InvalidArgument("line " + std::to_string(tok.line) +
                               ": a hipLaunchKernelGGL inside a macro");
      }
      if (tok.kind == Kind::kIdent && tok.text == "hipLaunchKernelGGL") ++launches;
    }
    if (launches != launches_seen_) {
      return InvalidArgument("a hipLaunchKernelGGL outside a namespace-scope host function");
    }
    RtcSplit out;
    std::string host;
    for (const Item& it : items) {
      const bool device_side = it.role != Role::kHostOnly;
      const bool host_side = it.role != Role::kDeviceOnly;
      // Removed text keeps its lines, so that messages point where they should.
      const std::string text = Text(it.begin, it.end);
      out.device_source += device_side ? text : Lines(text);
      if (!host_side) {
        host += Lines(text);
      } else if (it.role == Role::kKernel) {
        host += Text(it.begin, it.body) + "{}" + Lines(Text(it.body, it.end));
      } else {
        host += text;
      }
    }
    out.kernels = launched_;
    out.host_source = HostPrelude() + "#line 1 \"kernel.hip\"\n" + host + HostTable();
    return out;
  }

 private:
  static bool IsConditional(const std::string& directive) {
    size_t k = 1;
    while (k < directive.size() && std::isspace(static_cast<unsigned char>(directive[k]))) ++k;
    return directive.compare(k, 2, "if") == 0 || directive.compare(k, 4, "else") == 0 ||
           directive.compare(k, 4, "elif") == 0 || directive.compare(k, 5, "endif") == 0;
  }

  // A namespace-scope variable: a device one stays on the device side; a
  // constant on both (kernels may use it); any other is the host's (NVRTC
  // refuses host variables).
  static Role VariableRole(const std::set<std::string>& words) {
    if (words.count("__device__") || words.count("__constant__") || words.count("__shared__") ||
        words.count("__managed__")) {
      return Role::kDeviceOnly;
    }
    return words.count("constexpr") || words.count("const") ? Role::kBoth : Role::kHostOnly;
  }

  static Role DeclarationRole(const std::string& first, const std::set<std::string>& words,
                              bool has_paren, bool has_assign) {
    if (first == "static_assert" || first == "using" || first == "typedef" || first == "struct" ||
        first == "class" || first == "enum" || first == "union") {
      return Role::kBoth;
    }
    if (words.count("__global__")) return Role::kBoth;  // a kernel's declaration
    if (has_paren && !has_assign) {
      // A function's declaration: NVRTC refuses host ones.
      if (words.count("__device__"))
        return words.count("__host__") ? Role::kBoth : Role::kDeviceOnly;
      return Role::kHostOnly;
    }
    return VariableRole(words);
  }

  size_t Previous(size_t j) const {
    while (j > 0) {
      --j;
      if (Significant(t_[j])) return j;
    }
    return 0;
  }

  Result<size_t> Matching(size_t open) const {
    int depth = 0;
    for (size_t k = open; k < t_.size(); ++k) {
      if (!Significant(t_[k])) continue;
      if (t_[k].text == "{") ++depth;
      if (t_[k].text == "}" && --depth == 0) return k;
    }
    return InvalidArgument("line " + std::to_string(t_[open].line) + ": unbalanced braces");
  }

  // hipLaunchKernelGGL(NAME, ...) in a host body: NAME, HIP_KERNEL_NAME(...)
  // unwrapped, as the name expression.
  Status CollectLaunches(size_t open, size_t close) {
    for (size_t k = open; k < close; ++k) {
      if (t_[k].kind != Kind::kIdent || t_[k].text != "hipLaunchKernelGGL") continue;
      size_t a = k + 1;
      while (a < close && !Significant(t_[a])) ++a;
      if (a >= close || t_[a].text != "(") continue;
      ++launches_seen_;
      std::string name;
      int depth = 0;
      for (size_t b = a + 1; b < close; ++b) {
        const std::string& x = t_[b].text;
        if (!Significant(t_[b])) continue;
        if (depth == 0 && (x == "," || x == ")")) break;
        if (x == "(" || x == "[" || x == "{") ++depth;
        if (x == ")" || x == "]" || x == "}") --depth;
        name += (name.empty() || t_[b].kind != Kind::kIdent || t_[b - 1].kind != Kind::kSpace)
                    ? x
                    : " " + x;
      }
      const std::string wrap = "HIP_KERNEL_NAME(";
      if (name.compare(0, wrap.size(), wrap) == 0 && name.back() == ')') {
        name = name.substr(wrap.size(), name.size() - wrap.size() - 1);
      }
      if (name.empty())
        return InvalidArgument("line " + std::to_string(t_[k].line) +
                               ": a launch without a kernel");
      bool seen = false;
      for (const auto& n : launched_) seen |= n == name;
      if (!seen) launched_.push_back(name);
    }
    return OkStatus();
  }

  std::string Text(size_t begin, size_t end) const {
    std::string s;
    for (size_t k = begin; k < end; ++k) s += t_[k].text;
    return s;
  }

  static std::string Lines(const std::string& text) {
    return std::string(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')), '\n');
  }

  static std::string HostPrelude() {
    return "// Generated for runtime compilation: the host side of kernel.hip.\n"
           "#include <hip/hip_runtime.h>\n"
           "#include \"hip/nvidia_on_cuda/rtc_launch.h\"\n";
  }

  std::string HostTable() const {
    std::string s =
        "\n// The kernels launched, by the addresses of their host-side stubs.\n"
        "static const ::hip_on_cuda::rtc::KernelName hip_on_cuda_rtc_kernels[] = {\n";
    for (const auto& n : launched_) {
      s += "    {reinterpret_cast<const void*>(&" + n + "), \"" + n + "\"},\n";
    }
    if (launched_.empty()) s += "    {nullptr, \"\"},\n";
    s += "};\nstatic const ::hip_on_cuda::rtc::Registration hip_on_cuda_rtc_registration(\n"
         "    hip_on_cuda_rtc_kernels, " +
         std::to_string(launched_.size()) + ");\n";
    return s;
  }

  std::vector<Token> t_;
  std::vector<std::string> launched_;
  int launches_seen_ = 0;
};

}  // namespace

Result<RtcSplit> SplitForRuntimeCompilation(const std::string& source) {
  ARENA_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(source));
  return Splitter(std::move(tokens)).Run();
}

}  // namespace arena::hip2hip
