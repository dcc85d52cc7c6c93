#include "core/agent.h"

namespace arena {

Json FeedbackOptions::ToJson() const {
  return {{"configs", configs}, {"check_only", check_only}};
}

Result<FeedbackOptions> FeedbackOptions::FromJson(const Json& j) {
  if (!j.is_object()) return InvalidArgument("feedback options: a JSON object");
  FeedbackOptions o;
  if (j.contains("configs")) {
    const Json& c = j["configs"];
    if (!c.is_array()) return InvalidArgument("feedback options: configs: an array of names");
    for (size_t i = 0; i < c.size(); ++i) {
      if (!c[i].is_string() || c[i].get<std::string>().empty()) {
        return InvalidArgument("feedback options: configs[" + std::to_string(i) +
                               "]: a configuration name");
      }
      o.configs.push_back(c[i].get<std::string>());
    }
  }
  if (j.contains("check_only")) {
    if (!j["check_only"].is_boolean()) {
      return InvalidArgument("feedback options: check_only: true or false");
    }
    o.check_only = j["check_only"].get<bool>();
  }
  for (const auto& [key, value] : j.items()) {
    if (key != "configs" && key != "check_only") {
      return InvalidArgument("feedback options: unknown field '" + key + "'");
    }
  }
  return o;
}

Json AgentOutcome::ToJson() const {
  return {{"ok", ok}, {"detail", detail}, {"transcript", transcript}, {"wall_s", wall_s},
          {"exit_code", exit_code}, {"feedback_calls", feedback_calls}, {"usage", usage}};
}

Result<Json> DecodeAgentConfig(const AgentAdapter& agent, const std::string& agent_name,
                               const std::string& path) {
  SectionSchema schema = agent.ConfigSchema();
  schema.name = agent_name;
  ARENA_ASSIGN_OR_RETURN(Section s, path.empty()
                                        ? DecodeNothing("no --agent-config given", schema)
                                        : DecodeYamlFile(path, schema));
  return s.ToJson();
}

}  // namespace arena
