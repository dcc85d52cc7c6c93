// yaml-cpp helpers for core's own readers of YAML (task.yaml, an agent's
// configuration). Not part of the plugin SDK: families get their section
// through core/section.h, agents their configuration as JSON.
#ifndef ARENA_CORE_YAML_UTIL_H_
#define ARENA_CORE_YAML_UTIL_H_

#include <string>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "core/section.h"
#include "core/status.h"

namespace arena {

// "file:line:column: field: message", from a node's position.
Status FieldError(const std::string& file, const YAML::Node& node, const std::string& field,
                  const std::string& message);

// "file:line:column: message" from a yaml-cpp parse error ("file: message"
// where it has no position).
Status YamlParseError(const std::string& file, const YAML::Exception& e);

// Converts a YAML scalar/sequence/map into JSON (numbers stay numbers).
nlohmann::json YamlToJson(const YAML::Node& node);

// The same node with its positions, in the SDK's terms.
YamlValue ToYamlValue(const YAML::Node& node);

}  // namespace arena

#endif  // ARENA_CORE_YAML_UTIL_H_
