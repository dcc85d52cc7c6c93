#include "core/tunables.h"

#include <regex>
#include <sstream>

namespace arena {
namespace {

std::regex TunablePattern(const std::string& name) {
  // Group 1: everything up to the value; group 2: the value; group 3: the rest.
  return std::regex("^(" + name + R"(\s*=\s*|#define\s+)" + name + R"(\s+|constexpr\s+[\w:]+\s+)" +
                    name + R"(\s*=\s*)([^\s;#]+)(.*)$)");
}

}  // namespace

std::optional<TunableSite> FindTunable(const std::string& text, const std::string& name) {
  const std::regex pattern = TunablePattern(name);
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  for (int n = 1; std::getline(in, line); ++n) {
    if (std::regex_match(line, m, pattern)) return TunableSite{m[2].str(), n};
  }
  return std::nullopt;
}

bool RewriteTunable(std::string* text, const std::string& name, const std::string& value) {
  const std::regex pattern = TunablePattern(name);
  std::istringstream in(*text);
  std::string line, out;
  bool found = false;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!found && std::regex_match(line, m, pattern)) {
      line = m[1].str() + value + m[3].str();
      found = true;
    }
    out += line + "\n";
  }
  if (found) *text = out;
  return found;
}

}  // namespace arena
