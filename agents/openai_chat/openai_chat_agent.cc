// The openai-chat agent drives a model behind any OpenAI-compatible
// /v1/chat/completions endpoint (vLLM, SGLang, Ollama, OpenAI) through tool
// calls: the model lists, reads and writes the workspace's files and asks for
// feedback until it answers without a tool call or a budget runs out.
//
//   # agent.yaml, for --agent openai-chat --agent-config agent.yaml
//   base_url: http://127.0.0.1:8000/v1
//   model: Qwen/Qwen2.5-Coder-32B-Instruct
//   max_turns: 30
//
// README.md lists every key. Budgets ending a run leave ok = true (the files
// as they stand are evaluated); a server refusing the request, or failing past
// the retries, is ok = false.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "agents/openai_chat/http_client.h"
#include "agents/openai_chat/workspace_tools.h"
#include "core/agent.h"

namespace arena {
namespace {

using Clock = std::chrono::steady_clock;

// Used when the request carries no time budget of its own.
constexpr double kDefaultTimeBudgetS = 3600;
// Backoff doubles from retry_initial_delay_s up to this.
constexpr double kMaxRetryDelayS = 60;
// Longer entries are cut in the transcript (the model still sees them whole).
constexpr size_t kTranscriptEntryLimit = 16000;
// Server messages quoted in `detail` and the transcript.
constexpr size_t kServerMessageLimit = 500;

struct ChatConfig {
  std::string base_url;
  HttpEndpoint endpoint;
  std::string model;
  std::string api_key_env = "OPENAI_API_KEY";
  std::optional<double> temperature;  // the server's default when unset
  int max_turns = 30;                 // chat completions per run
  int64_t max_tokens_total = 0;       // 0: no token budget
  double request_timeout_s = 600;     // generous: a long reply is slow
  int max_retries = 4;
  double retry_initial_delay_s = 1;
  bool insecure = false;
};

Result<double> NumberField(const Json& config, const std::string& key, double min) {
  const Json& value = config.at(key);
  if (!value.is_number()) return InvalidArgument("openai-chat: '" + key + "' must be a number");
  const double number = value.get<double>();
  if (!std::isfinite(number) || number < min) {
    return InvalidArgument("openai-chat: '" + key + "' must be a number of at least " +
                           Json(min).dump());
  }
  return number;
}

Result<int64_t> IntegerField(const Json& config, const std::string& key, int64_t min) {
  const Json& value = config.at(key);
  if (!value.is_number_integer() || value.get<int64_t>() < min) {
    return InvalidArgument("openai-chat: '" + key + "' must be an integer of at least " +
                           std::to_string(min));
  }
  return value.get<int64_t>();
}

Result<ChatConfig> ParseChatConfig(const Json& config) {
  if (!config.is_object()) return InvalidArgument("openai-chat: the config must be a mapping");
  static const std::set<std::string> kKnownKeys = {
      "base_url",          "model",       "api_key_env",
      "temperature",       "max_turns",   "max_tokens_total",
      "request_timeout_s", "max_retries", "retry_initial_delay_s",
      "insecure"};
  for (const auto& [key, value] : config.items()) {
    if (!kKnownKeys.count(key)) {
      return InvalidArgument("openai-chat: unknown config key '" + key +
                             "' (agents/openai_chat/README.md lists the keys)");
    }
  }
  ChatConfig parsed;
  for (const char* key : {"base_url", "model"}) {
    if (!config.contains(key) || !config[key].is_string() ||
        config[key].get<std::string>().empty()) {
      return InvalidArgument(std::string("openai-chat: config needs '") + key + ": ...'");
    }
  }
  parsed.base_url = config["base_url"].get<std::string>();
  auto endpoint = ParseBaseUrl(parsed.base_url);
  if (!endpoint.ok()) return endpoint.status().WithContext("openai-chat");
  parsed.endpoint = *endpoint;
  parsed.model = config["model"].get<std::string>();
  if (config.contains("api_key_env")) {
    if (!config["api_key_env"].is_string()) {
      return InvalidArgument("openai-chat: 'api_key_env' must name an environment variable");
    }
    parsed.api_key_env = config["api_key_env"].get<std::string>();
  }
  if (config.contains("temperature")) {
    ARENA_ASSIGN_OR_RETURN(parsed.temperature, NumberField(config, "temperature", 0));
  }
  if (config.contains("max_turns")) {
    ARENA_ASSIGN_OR_RETURN(int64_t turns, IntegerField(config, "max_turns", 1));
    parsed.max_turns = static_cast<int>(std::min<int64_t>(turns, 1 << 30));
  }
  if (config.contains("max_tokens_total")) {
    ARENA_ASSIGN_OR_RETURN(parsed.max_tokens_total, IntegerField(config, "max_tokens_total", 0));
  }
  if (config.contains("request_timeout_s")) {
    ARENA_ASSIGN_OR_RETURN(parsed.request_timeout_s,
                           NumberField(config, "request_timeout_s", 0.001));
  }
  if (config.contains("max_retries")) {
    ARENA_ASSIGN_OR_RETURN(int64_t retries, IntegerField(config, "max_retries", 0));
    parsed.max_retries = static_cast<int>(std::min<int64_t>(retries, 100));
  }
  if (config.contains("retry_initial_delay_s")) {
    ARENA_ASSIGN_OR_RETURN(parsed.retry_initial_delay_s,
                           NumberField(config, "retry_initial_delay_s", 0));
  }
  if (config.contains("insecure")) {
    if (!config["insecure"].is_boolean()) {
      return InvalidArgument("openai-chat: 'insecure' must be true or false");
    }
    parsed.insecure = config["insecure"].get<bool>();
  }
  return parsed;
}

std::string Clip(const std::string& text, size_t limit) {
  if (text.size() <= limit) return text;
  // Cut at a character boundary: the transcript and `detail` stay UTF-8.
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "[... " + std::to_string(text.size() - cut) + " more bytes]";
}

// The human-readable reason in an error body: OpenAI's {"error": {"message"}},
// a bare {"error": "..."}, FastAPI's {"detail": ...}, or the body itself.
std::string ServerMessage(const std::string& body) {
  const Json doc = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  std::string message;
  if (doc.is_object()) {
    const Json* error = doc.contains("error") ? &doc["error"] : nullptr;
    if (error && error->is_object() && error->contains("message") &&
        (*error)["message"].is_string()) {
      message = (*error)["message"].get<std::string>();
    } else if (error && error->is_string()) {
      message = error->get<std::string>();
    } else if (doc.contains("message") && doc["message"].is_string()) {
      message = doc["message"].get<std::string>();
    } else if (doc.contains("detail")) {
      message = doc["detail"].is_string()
                    ? doc["detail"].get<std::string>()
                    : doc["detail"].dump(-1, ' ', false, Json::error_handler_t::replace);
    }
  }
  if (message.empty()) message = body.empty() ? "(empty body)" : body;
  return Clip(ReplaceInvalidUtf8(message), kServerMessageLimit);
}

// Retry-After in its delta-seconds form; an HTTP date falls back to backoff.
std::optional<double> RetryAfterSeconds(const HttpResponse& response) {
  const std::string* value = response.Header("retry-after");
  if (!value) return std::nullopt;
  char* end = nullptr;
  const double seconds = std::strtod(value->c_str(), &end);
  if (end == value->c_str() || *end != '\0' || !std::isfinite(seconds)) return std::nullopt;
  return std::max(seconds, 0.0);
}

int64_t CountField(const Json& usage, const char* key) {
  auto it = usage.find(key);
  return it != usage.end() && it->is_number() ? it->get<int64_t>() : 0;
}

std::string Seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f s", s);
  return text;
}

// One run of the loop: the conversation, the budgets, and what is reported.
class ChatRun {
 public:
  ChatRun(const AgentRequest& request, ChatConfig config)
      : request_(request),
        config_(std::move(config)),
        tools_(request.workspace, request.task->editable, request.feedback),
        started_(Clock::now()) {
    const double budget = request.time_budget_s > 0 ? request.time_budget_s : kDefaultTimeBudgetS;
    deadline_ = started_ +
                std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget));
    time_budget_s_ = budget;
    if (const char* key = std::getenv(config_.api_key_env.c_str()); key && *key) {
      http_options_.headers.emplace_back("Authorization", std::string("Bearer ") + key);
    }
    http_options_.verify_tls = !config_.insecure;
    target_ = config_.endpoint.path_prefix + "/chat/completions";
  }

  AgentOutcome Run() {
    offered_tools_ = tools_.Schemas();
    std::string system =
        "You are an expert GPU kernel engineer. Using the tools, read the files of the "
        "workspace and rewrite the editable kernel files so that they run faster while staying "
        "correct.";
    if (request_.feedback) system += " Check your changes with run_feedback.";
    system += " When you are done, reply with a short summary and no tool call.";
    std::string prompt = request_.prompt;
    if (prompt.empty()) prompt = request_.task->instructions;
    if (prompt.empty()) prompt = request_.task->description;
    AddMessage({{"role", "system"}, {"content", system}}, "system", system);
    AddMessage({{"role", "user"}, {"content", prompt}}, "user", prompt);
    Log("-- " + request_.task->id + " with " + config_.model + " at " + config_.base_url + "\n");

    bool answered = false;
    while (!stop_) {
      if (turns_ >= config_.max_turns) {
        StopOnBudget("max_turns (" + std::to_string(config_.max_turns) + ") reached");
        break;
      }
      if (config_.max_tokens_total > 0 && usage_total_ >= config_.max_tokens_total) {
        StopOnBudget("max_tokens_total (" + std::to_string(config_.max_tokens_total) +
                     ") reached: " + std::to_string(usage_total_) + " tokens used");
        break;
      }
      std::optional<Json> reply = Complete();
      if (!reply) break;
      ++turns_;
      if (!HandleReply(*reply)) {
        answered = true;
        break;
      }
    }

    AgentOutcome outcome;
    if (stop_) {
      outcome.ok = !stop_->agent_failed;
      outcome.detail = stop_->detail;
      Log("== " + std::string(stop_->agent_failed ? "failed" : "stopped") + ": " + stop_->detail +
          "\n");
    } else if (answered) {
      Log("== done after " + std::to_string(turns_) + " turns\n");
    }
    outcome.transcript = transcript_;
    outcome.wall_s = std::chrono::duration<double>(Clock::now() - started_).count();
    outcome.feedback_calls = tools_.feedback_calls();
    outcome.usage = {{"prompt_tokens", usage_prompt_},
                     {"completion_tokens", usage_completion_},
                     {"total_tokens", usage_total_},
                     {"requests", turns_},
                     {"retries", retries_}};
    return outcome;
  }

  const std::string& transcript() const { return transcript_; }

 private:
  struct Stop {
    bool agent_failed = false;
    std::string detail;
  };

  void Log(const std::string& text) { transcript_ += text; }

  void AddMessage(Json message, const std::string& heading, const std::string& text) {
    messages_.push_back(std::move(message));
    Log("== " + heading + " ==\n" + Clip(text, kTranscriptEntryLimit) + "\n");
  }

  void StopOnBudget(const std::string& why) { stop_ = Stop{false, why}; }
  void Fail(const std::string& why) { stop_ = Stop{true, why}; }

  double SecondsLeft() const {
    return std::chrono::duration<double>(deadline_ - Clock::now()).count();
  }

  std::string TimeBudgetText() const { return "the time budget (" + Seconds(time_budget_s_) + ")"; }

  // One chat completion, retried on transport errors, 429 and 5xx. Returns
  // choices[0].message, or nothing with stop_ set.
  std::optional<Json> Complete() {
    Json body = {{"model", config_.model}, {"messages", messages_}, {"tools", offered_tools_}};
    if (config_.temperature) body["temperature"] = *config_.temperature;
    // Reproducible sampling where the server supports it; 31 bits because
    // some servers keep seeds in a signed 32-bit integer.
    if (request_.seed != 0) body["seed"] = static_cast<int64_t>(request_.seed & 0x7fffffff);
    const std::string payload = body.dump(-1, ' ', false, Json::error_handler_t::replace);
    const std::string server = config_.endpoint.host_header;

    for (int attempt = 0;; ++attempt) {
      const double left = SecondsLeft();
      if (left <= 0) {
        StopOnBudget(TimeBudgetText() + " ran out");
        return std::nullopt;
      }
      HttpRequestOptions options = http_options_;
      options.timeout_s = std::min(config_.request_timeout_s, left);
      Result<HttpResponse> response = HttpPost(config_.endpoint, target_, payload, options);

      std::string failure;  // set when a retry may help
      std::optional<double> retry_after;
      if (!response.ok()) {
        const StatusCode code = response.status().code();
        if (code != StatusCode::kUnavailable && code != StatusCode::kDeadlineExceeded) {
          Fail(response.status().message());
          return std::nullopt;
        }
        failure = response.status().message();
      } else if (response->status >= 200 && response->status < 300) {
        return ParseCompletion(response->body);
      } else if (response->status == 429 || response->status >= 500) {
        failure = "HTTP " + std::to_string(response->status) + " from " + server + ": " +
                  ServerMessage(response->body);
        retry_after = RetryAfterSeconds(*response);
      } else {
        Fail("HTTP " + std::to_string(response->status) + " from " + server + ": " +
             ServerMessage(response->body));
        return std::nullopt;
      }

      if (attempt >= config_.max_retries) {
        Fail("gave up after " + std::to_string(attempt) + " retries: " + failure);
        return std::nullopt;
      }
      const double delay =
          retry_after
              ? *retry_after
              : std::min(config_.retry_initial_delay_s * std::pow(2.0, attempt), kMaxRetryDelayS);
      if (delay >= SecondsLeft()) {
        StopOnBudget(TimeBudgetText() + " ran out before the next try (" + failure + ")");
        return std::nullopt;
      }
      ++retries_;
      Log("-- " + failure + "; retry " + std::to_string(attempt + 1) + " of " +
          std::to_string(config_.max_retries) + " in " + Seconds(delay) + "\n");
      std::this_thread::sleep_for(std::chrono::duration<double>(delay));
    }
  }

  // choices[0].message of a 2xx body, with its usage counted.
  std::optional<Json> ParseCompletion(const std::string& body) {
    const Json doc = Json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object()) {
      Fail("the server's reply is not a JSON object: " + Clip(ReplaceInvalidUtf8(body), 200));
      return std::nullopt;
    }
    if (doc.contains("usage") && doc["usage"].is_object()) {
      const Json& usage = doc["usage"];
      const int64_t prompt = CountField(usage, "prompt_tokens");
      const int64_t completion = CountField(usage, "completion_tokens");
      const int64_t total = CountField(usage, "total_tokens");
      usage_prompt_ += prompt;
      usage_completion_ += completion;
      usage_total_ += total > 0 ? total : prompt + completion;
    }
    const Json* choices = doc.contains("choices") ? &doc["choices"] : nullptr;
    if (!choices || !choices->is_array() || choices->empty() || !(*choices)[0].is_object() ||
        !(*choices)[0].contains("message") || !(*choices)[0]["message"].is_object()) {
      Fail("the server's reply has no choices[0].message: " + ServerMessage(body));
      return std::nullopt;
    }
    return (*choices)[0]["message"];
  }

  // Records the model's message and runs its tool calls. Returns false when
  // the model answered without any: the run is over.
  bool HandleReply(const Json& reply) {
    Json content = reply.contains("content") ? reply["content"] : Json(nullptr);
    std::string text = content.is_string() ? content.get<std::string>()
                       : content.is_null()
                           ? ""
                           : content.dump(-1, ' ', false, Json::error_handler_t::replace);
    std::string heading = "assistant (turn " + std::to_string(turns_) + ")";
    // Reasoning models on vLLM and SGLang return their thinking apart; it is
    // logged, not sent back (servers drop it from the history anyway).
    if (reply.contains("reasoning_content") && reply["reasoning_content"].is_string()) {
      Log("== reasoning (turn " + std::to_string(turns_) + ") ==\n" +
          Clip(reply["reasoning_content"].get<std::string>(), kTranscriptEntryLimit) + "\n");
    }

    Json calls = Json::array();
    if (reply.contains("tool_calls") && reply["tool_calls"].is_array()) {
      for (const Json& call : reply["tool_calls"]) calls.push_back(NormalizeToolCall(call));
    }
    Json echo = {{"role", "assistant"}, {"content", content}};
    if (!calls.empty()) echo["tool_calls"] = calls;
    std::string logged = text;
    for (const Json& call : calls) {
      logged += (logged.empty() ? "" : "\n") + std::string("-> ") +
                call["function"]["name"].get<std::string>() + "(" +
                call["function"]["arguments"].get<std::string>() + ")  [" +
                call["id"].get<std::string>() + "]";
    }
    AddMessage(std::move(echo), heading, logged);
    if (calls.empty()) return false;

    for (const Json& call : calls) {
      const std::string id = call["id"].get<std::string>();
      const std::string name = call["function"]["name"].get<std::string>();
      const std::string arguments_text = call["function"]["arguments"].get<std::string>();
      ToolResult result;
      Json arguments = arguments_text.empty()
                           ? Json::object()
                           : Json::parse(arguments_text, nullptr, /*allow_exceptions=*/false);
      if (arguments.is_discarded()) {
        result = ToolResult{
            false, "error: the arguments are not valid JSON: " + Clip(arguments_text, 200)};
      } else {
        result = tools_.Call(name, arguments);
      }
      AddMessage({{"role", "tool"}, {"tool_call_id", id}, {"content", result.text}},
                 "tool " + name + " [" + id + "]" + (result.ok ? "" : " (refused)"), result.text);
    }
    return true;
  }

  // A tool call in the one shape the rest relies on: an id (some servers omit
  // it), a function name, and the arguments as a JSON string (some servers
  // send an object).
  Json NormalizeToolCall(const Json& call) {
    std::string id =
        call.contains("id") && call["id"].is_string() ? call["id"].get<std::string>() : "";
    if (id.empty()) id = "call_" + std::to_string(turns_) + "_" + std::to_string(++unnamed_calls_);
    std::string name;
    std::string arguments;
    if (call.contains("function") && call["function"].is_object()) {
      const Json& function = call["function"];
      if (function.contains("name") && function["name"].is_string()) {
        name = function["name"].get<std::string>();
      }
      if (function.contains("arguments")) {
        const Json& a = function["arguments"];
        arguments = a.is_string() ? a.get<std::string>()
                    : a.is_null() ? ""
                                  : a.dump(-1, ' ', false, Json::error_handler_t::replace);
      }
    }
    return {
        {"id", id}, {"type", "function"}, {"function", {{"name", name}, {"arguments", arguments}}}};
  }

  const AgentRequest& request_;
  const ChatConfig config_;
  WorkspaceTools tools_;
  Json offered_tools_;
  HttpRequestOptions http_options_;
  std::string target_;
  Clock::time_point started_;
  Clock::time_point deadline_;
  double time_budget_s_ = 0;

  Json messages_ = Json::array();
  std::string transcript_;
  std::optional<Stop> stop_;
  int turns_ = 0;  // chat completions answered
  int retries_ = 0;
  int unnamed_calls_ = 0;
  int64_t usage_prompt_ = 0;
  int64_t usage_completion_ = 0;
  int64_t usage_total_ = 0;
};

class OpenAiChatAgent : public AgentAdapter {
 public:
  SectionSchema ConfigSchema() const override {
    return {"",
            {{"base_url", FieldType::kString, /*required=*/true},
             {"model", FieldType::kString, /*required=*/true},
             {"api_key_env", FieldType::kString},
             {"temperature", FieldType::kNumber},
             {"max_turns", FieldType::kInt},
             {"max_tokens_total", FieldType::kInt},
             {"request_timeout_s", FieldType::kNumber},
             {"max_retries", FieldType::kInt},
             {"retry_initial_delay_s", FieldType::kNumber},
             {"insecure", FieldType::kBool}}};
  }
  Result<AgentOutcome> Run(const AgentRequest& request) override {
    ARENA_ASSIGN_OR_RETURN(ChatConfig config, ParseChatConfig(request.config));
    if (request.task == nullptr) return InvalidArgument("openai-chat: the request has no task");
    ChatRun run(request, std::move(config));
    // nlohmann::json throws only on misuse that the checks in ChatRun rule
    // out; this is the edge that keeps a slip from escaping all the same.
    try {
      return run.Run();
    } catch (const std::exception& e) {
      AgentOutcome outcome;
      outcome.ok = false;
      outcome.detail = std::string("openai-chat: internal error: ") + e.what();
      outcome.transcript = run.transcript();
      return outcome;
    }
  }
};

}  // namespace
}  // namespace arena

ARENA_REGISTER_AGENT("openai-chat", arena::OpenAiChatAgent);
