#include "agents/cli/cli_output.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <map>
#include <regex>
#include <string_view>

namespace arena {
namespace {

void ForEachLine(const std::string& text, const std::function<void(std::string_view)>& fn) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    fn(line);
    start = end + 1;
  }
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A JSON object on one line, or a discarded value (never throws).
Json ParseObjectLine(std::string_view line) {
  line = Trim(line);
  if (line.empty() || line.front() != '{') return Json(Json::value_t::discarded);
  Json j = Json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Json(Json::value_t::discarded);
  return j;
}

const Json* Field(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

// The first of `keys` present in `j` as a number.
std::optional<double> NumberField(const Json& j, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    const Json* v = Field(j, k);
    if (v && v->is_number()) return v->get<double>();
  }
  return std::nullopt;
}

std::optional<std::string> StringField(const Json& j, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    const Json* v = Field(j, k);
    if (v && v->is_string()) return v->get<std::string>();
  }
  return std::nullopt;
}

std::string TypeOf(const Json& j) { return StringField(j, {"type"}).value_or(""); }

// Sums of what a CLI reported, kept apart from "not reported".
class UsageTotals {
 public:
  void AddTokens(const char* name, std::optional<double> n) {
    if (n) tokens_[name] += static_cast<int64_t>(*n);
  }
  void AddCost(std::optional<double> usd) {
    if (usd) cost_ = cost_.value_or(0) + *usd;
  }
  void SetCost(std::optional<double> usd) {
    if (usd) cost_ = *usd;
  }
  void Count(const char* name, int64_t n = 1) { tokens_[name] += n; }

  Json ToJson() const {
    Json j = Json::object();
    for (const auto& [k, v] : tokens_) j[k] = v;
    if (cost_) j["cost_usd"] = *cost_;
    return j;
  }

 private:
  std::map<std::string, int64_t> tokens_;
  std::optional<double> cost_;
};

// Claude Code and Cursor: the last {"type":"result"} event carries the totals.
// Cursor spells them in camelCase where it reports them at all.
Json ResultEventUsage(const std::string& out) {
  Json last_result;
  ForEachLine(out, [&](std::string_view line) {
    Json j = ParseObjectLine(line);
    if (!j.is_discarded() && TypeOf(j) == "result") last_result = std::move(j);
  });
  UsageTotals t;
  if (last_result.is_null()) return t.ToJson();
  if (const Json* u = Field(last_result, "usage"); u && u->is_object()) {
    t.AddTokens("input_tokens", NumberField(*u, {"input_tokens", "inputTokens"}));
    t.AddTokens("output_tokens", NumberField(*u, {"output_tokens", "outputTokens"}));
    t.AddTokens("cache_read_tokens",
                NumberField(*u, {"cache_read_input_tokens", "cacheReadTokens", "cache_read_tokens"}));
    t.AddTokens("cache_write_tokens", NumberField(*u, {"cache_creation_input_tokens",
                                                       "cacheWriteTokens", "cache_write_tokens"}));
  }
  // Older Claude Code releases called the cost cost_usd.
  t.SetCost(NumberField(last_result, {"total_cost_usd", "cost_usd"}));
  t.AddTokens("turns", NumberField(last_result, {"num_turns"}));
  return t.ToJson();
}

// Codex: usage per turn.completed event, summed.
Json CodexUsage(const std::string& out) {
  UsageTotals t;
  ForEachLine(out, [&](std::string_view line) {
    Json j = ParseObjectLine(line);
    if (j.is_discarded() || TypeOf(j) != "turn.completed") return;
    t.Count("turns");
    const Json* u = Field(j, "usage");
    if (!u || !u->is_object()) return;
    t.AddTokens("input_tokens", NumberField(*u, {"input_tokens"}));
    t.AddTokens("cache_read_tokens", NumberField(*u, {"cached_input_tokens"}));
    t.AddTokens("output_tokens", NumberField(*u, {"output_tokens"}));
    t.AddTokens("reasoning_tokens", NumberField(*u, {"reasoning_output_tokens"}));
  });
  return t.ToJson();
}

// OpenCode: tokens and cost per step_finish event, summed.
Json OpenCodeUsage(const std::string& out) {
  UsageTotals t;
  ForEachLine(out, [&](std::string_view line) {
    Json j = ParseObjectLine(line);
    if (j.is_discarded() || TypeOf(j) != "step_finish") return;
    const Json* part = Field(j, "part");
    if (!part || !part->is_object()) return;
    t.Count("steps");
    t.AddCost(NumberField(*part, {"cost"}));
    const Json* tokens = Field(*part, "tokens");
    if (!tokens || !tokens->is_object()) return;
    t.AddTokens("input_tokens", NumberField(*tokens, {"input"}));
    t.AddTokens("output_tokens", NumberField(*tokens, {"output"}));
    t.AddTokens("reasoning_tokens", NumberField(*tokens, {"reasoning"}));
    if (const Json* cache = Field(*tokens, "cache"); cache && cache->is_object()) {
      t.AddTokens("cache_read_tokens", NumberField(*cache, {"read"}));
      t.AddTokens("cache_write_tokens", NumberField(*cache, {"write"}));
    }
  });
  return t.ToJson();
}

// "12k" -> 12000, "1.5M" -> 1500000, "340" -> 340.
std::optional<double> TokenCount(const std::string& s) {
  if (s.empty()) return std::nullopt;
  double scale = 1;
  std::string digits = s;
  char suffix = static_cast<char>(std::tolower(static_cast<unsigned char>(s.back())));
  if (suffix == 'k') scale = 1e3;
  if (suffix == 'm') scale = 1e6;
  if (scale != 1) digits.pop_back();
  char* end = nullptr;
  double v = std::strtod(digits.c_str(), &end);
  if (end == digits.c_str() || *end != '\0') return std::nullopt;
  return v * scale;
}

// Aider: one "Tokens: ... sent, ... received. Cost: $x message, $y session."
// line per reply; tokens are summed, the last session cost is the total.
Json AiderUsage(const std::string& out, const std::string& err) {
  static const std::regex sent(R"(Tokens:\s*([0-9.]+[kKmM]?)\s+sent)");
  static const std::regex received(R"(([0-9.]+[kKmM]?)\s+received)");
  static const std::regex session(R"(\$([0-9.]+)\s+session)");
  UsageTotals t;
  auto scan = [&](std::string_view line) {
    if (line.find("Tokens:") == std::string_view::npos) return;
    std::string s(line);
    std::smatch m;
    if (!std::regex_search(s, m, sent)) return;
    t.Count("replies");
    t.AddTokens("input_tokens", TokenCount(m[1].str()));
    if (std::regex_search(s, m, received)) t.AddTokens("output_tokens", TokenCount(m[1].str()));
    if (std::regex_search(s, m, session)) {
      char* end = nullptr;
      std::string usd = m[1].str();
      double v = std::strtod(usd.c_str(), &end);
      if (end != usd.c_str()) t.SetCost(v);
    }
  };
  ForEachLine(out, scan);
  ForEachLine(err, scan);
  return t.ToJson();
}

// mini-SWE-agent: info.model_stats of the trajectory file.
Json TrajectoryUsage(const std::string& text) {
  UsageTotals t;
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  const Json* info = Field(j, "info");
  const Json* stats = info ? Field(*info, "model_stats") : nullptr;
  if (stats && stats->is_object()) {
    t.SetCost(NumberField(*stats, {"instance_cost"}));
    t.AddTokens("api_calls", NumberField(*stats, {"api_calls"}));
  }
  return t.ToJson();
}

// One readable line: the message of a JSON event, or the line itself.
std::string Readable(std::string_view line) {
  std::string text(Trim(line));
  Json j = ParseObjectLine(line);
  if (!j.is_discarded()) {
    if (auto s = StringField(j, {"result", "message"})) {
      text = *s;
    } else if (const Json* e = Field(j, "error")) {
      if (e->is_string()) {
        text = e->get<std::string>();
      } else if (auto m = StringField(*e, {"message", "name"})) {
        text = *m;
        if (const Json* data = Field(*e, "data")) {
          if (auto dm = StringField(*data, {"message"})) text = *dm;
        }
      }
    }
  }
  std::string flat;
  for (char c : text) flat += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (flat.size() > 300) flat = flat.substr(0, 297) + "...";
  return std::string(Trim(flat));
}

// Whether a stdout line is the CLI speaking for itself rather than streaming
// the model's words or a tool's output (which may quote anything).
bool IsCliOwnLine(std::string_view line) {
  Json j = ParseObjectLine(line);
  // Plain text is the CLI's own. (Text-mode CLIs such as Aider print the
  // model's reply as plain text too; their markers are specific enough.)
  if (j.is_discarded()) return true;
  std::string type = TypeOf(j);
  if (type == "result" || type == "error" || type == "turn.failed") return true;
  const Json* is_error = Field(j, "is_error");
  if (is_error && is_error->is_boolean() && is_error->get<bool>()) return true;
  return Field(j, "error") != nullptr && type != "item.completed" && type != "tool_use";
}

}  // namespace

Json ParseUsage(UsageFormat format, const std::string& out, const std::string& err,
                const std::string& output_file) {
  switch (format) {
    case UsageFormat::kNone:
      return Json::object();
    case UsageFormat::kResultEvent:
      return ResultEventUsage(out);
    case UsageFormat::kCodexEvents:
      return CodexUsage(out);
    case UsageFormat::kOpenCodeEvents:
      return OpenCodeUsage(out);
    case UsageFormat::kAiderText:
      return AiderUsage(out, err);
    case UsageFormat::kTrajectoryFile:
      return TrajectoryUsage(output_file);
  }
  return Json::object();
}

std::optional<std::string> FindLoggedOutMessage(const std::vector<std::string>& markers,
                                                const std::string& out, const std::string& err) {
  std::optional<std::string> found;
  auto scan = [&](std::string_view line, bool from_stdout) {
    if (found || Trim(line).empty()) return;
    if (from_stdout && !IsCliOwnLine(line)) return;
    std::string lower = Lower(line);
    for (const std::string& m : markers) {
      if (lower.find(m) != std::string::npos) {
        found = Readable(line);
        return;
      }
    }
  };
  ForEachLine(err, [&](std::string_view l) { scan(l, false); });
  ForEachLine(out, [&](std::string_view l) { scan(l, true); });
  return found;
}

std::optional<std::string> FindReportedError(const std::string& out) {
  std::optional<std::string> last;
  ForEachLine(out, [&](std::string_view line) {
    Json j = ParseObjectLine(line);
    if (j.is_discarded() || TypeOf(j) != "result") return;
    const Json* is_error = Field(j, "is_error");
    if (is_error && is_error->is_boolean() && is_error->get<bool>()) {
      last = Readable(line);
    } else {
      last.reset();
    }
  });
  return last;
}

}  // namespace arena
