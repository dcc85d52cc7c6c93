#include "core/task.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/task_file_guard.h"
#include "core/yaml_util.h"
#include "core/tunables.h"

namespace arena {

std::string JsonText(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}
namespace fs = std::filesystem;

const char* ConfigKindName(ConfigKind kind) {
  switch (kind) {
    case ConfigKind::kSmall: return "small";
    case ConfigKind::kTuning: return "tuning";
    case ConfigKind::kHeldout: return "heldout";
  }
  return "unknown";
}

Status YamlParseError(const std::string& file, const YAML::Exception& e) {
  std::string where = file;
  if (!e.mark.is_null()) {
    where += ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1);
  }
  return InvalidArgument(where + ": " + e.msg);
}

Status FieldError(const std::string& file, const YAML::Node& node,
                  const std::string& field, const std::string& message) {
  std::ostringstream out;
  out << file;
  if (node.IsDefined() && node.Mark().line >= 0) {
    out << ":" << node.Mark().line + 1 << ":" << node.Mark().column + 1;
  }
  out << ": " << field << ": " << message;
  return InvalidArgument(out.str());
}

Json YamlToJson(const YAML::Node& node) {
  if (!node.IsDefined()) return nullptr;
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar: {
      if (node.Tag() == "!") return node.Scalar();  // quoted: a string
      long long i;
      if (YAML::convert<long long>::decode(node, i)) return i;
      double d;
      if (YAML::convert<double>::decode(node, d)) return d;
      bool b;
      if (YAML::convert<bool>::decode(node, b)) return b;
      return node.Scalar();
    }
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const auto& item : node) out.push_back(YamlToJson(item));
      return out;
    }
    case YAML::NodeType::Map: {
      Json out = Json::object();
      for (const auto& kv : node) out[kv.first.Scalar()] = YamlToJson(kv.second);
      return out;
    }
  }
  return nullptr;
}

YamlValue ToYamlValue(const YAML::Node& node) {
  YamlValue v;
  if (!node.IsDefined() || node.IsNull()) return v;
  if (node.Mark().line >= 0) {
    v.line = node.Mark().line + 1;
    v.column = node.Mark().column + 1;
  }
  if (node.IsScalar()) {
    v.kind = YamlValue::Kind::kScalar;
    v.scalar = node.Scalar();
  } else if (node.IsSequence()) {
    v.kind = YamlValue::Kind::kList;
    for (const auto& item : node) v.items.push_back(ToYamlValue(item));
  } else if (node.IsMap()) {
    v.kind = YamlValue::Kind::kMap;
    for (const auto& kv : node) {
      v.keys.push_back(ToYamlValue(kv.first));
      v.items.push_back(ToYamlValue(kv.second));
    }
  }
  return v;
}

namespace {

const std::set<std::string>& KnownDtypes() {
  static const std::set<std::string> kDtypes = {
      "float16", "bfloat16", "float32", "float64", "float8_e4m3fn",
      "float8_e5m2", "int8", "uint8", "int16", "int32", "int64", "bool"};
  return kDtypes;
}

// Decodes one task.yaml; each helper returns an error naming the field.
class TaskDecoder {
 public:
  TaskDecoder(std::string file, TaskSpec* task) : file_(std::move(file)), task_(task) {}

  Status Decode(const YAML::Node& root) {
    if (!root.IsMap()) {
      // An empty document has no position of its own: it is the whole file.
      if (root.Mark().line < 0) return InvalidArgument(file_ + ":1:1: (top level): expected a mapping");
      return FieldError(file_, root, "(top level)", "expected a mapping");
    }
    ARENA_ASSIGN_OR_RETURN(task_->family, RequiredString(root, "family", "family"));
    task_->family_line = root["family"].Mark().line + 1;
    task_->family_column = root["family"].Mark().column + 1;
    static const std::set<std::string> kKeys = {
        "family", "description", "files", "interface", "configs", "tolerances",
        "correctness", "timing", "cost", "tunables", "instructions"};
    for (const auto& kv : root) {
      const std::string key = kv.first.Scalar();
      if (!kKeys.count(key) && key != task_->family) {
        return FieldError(file_, kv.first, key,
                          "unknown field (the family's own section must be "
                          "named '" + task_->family + "')");
      }
    }
    ARENA_ASSIGN_OR_RETURN(task_->description,
                           OptionalString(root, "description", "description"));
    ARENA_ASSIGN_OR_RETURN(task_->instructions,
                           RequiredString(root, "instructions", "instructions"));
    ARENA_RETURN_IF_ERROR(DecodeFiles(root));
    ARENA_RETURN_IF_ERROR(DecodeInterface(root));
    ARENA_RETURN_IF_ERROR(DecodeCost(root));
    ARENA_RETURN_IF_ERROR(DecodeConfigs(root));
    ARENA_RETURN_IF_ERROR(DecodeTolerances(root));
    ARENA_RETURN_IF_ERROR(DecodeCorrectness(root));
    ARENA_RETURN_IF_ERROR(DecodeTiming(root));
    ARENA_RETURN_IF_ERROR(DecodeTunables(root));
    const YAML::Node section = root[task_->family];
    task_->family_section = ToYamlValue(section);
    task_->family_json = YamlToJson(section);
    return OkStatus();
  }

 private:
  Result<std::string> RequiredString(const YAML::Node& parent, const std::string& key,
                                     const std::string& field) {
    YAML::Node n = parent[key];
    if (!n.IsDefined() || n.IsNull()) return FieldError(file_, parent, field, "missing");
    if (!n.IsScalar()) return FieldError(file_, n, field, "expected a string");
    if (n.Scalar().empty()) return FieldError(file_, n, field, "must not be empty");
    return n.Scalar();
  }

  Result<std::string> OptionalString(const YAML::Node& parent, const std::string& key,
                                     const std::string& field) {
    YAML::Node n = parent[key];
    if (!n.IsDefined() || n.IsNull()) return std::string();
    if (!n.IsScalar()) return FieldError(file_, n, field, "expected a string");
    return n.Scalar();
  }

  Result<double> Number(const YAML::Node& n, const std::string& field) {
    double v;
    if (!n.IsScalar() || n.Tag() == "!" || !YAML::convert<double>::decode(n, v)) {
      return FieldError(file_, n, field, "expected a number");
    }
    return v;
  }

  Status CheckKeys(const YAML::Node& map, const std::string& field,
                   const std::set<std::string>& allowed) {
    for (const auto& kv : map) {
      if (!allowed.count(kv.first.Scalar())) {
        return FieldError(file_, kv.first, field + "." + kv.first.Scalar(), "unknown field");
      }
    }
    return OkStatus();
  }

  Result<std::vector<std::string>> FileList(const YAML::Node& files, const std::string& key,
                                            bool required, bool shipped = true) {
    const std::string field = "files." + key;
    YAML::Node list = files[key];
    std::vector<std::string> out;
    if (!list.IsDefined() || list.IsNull()) {
      if (required) return FieldError(file_, files, field, "missing");
      return out;
    }
    if (!list.IsSequence()) return FieldError(file_, list, field, "expected a list of paths");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string item_field = field + "[" + std::to_string(i) + "]";
      if (!list[i].IsScalar()) return FieldError(file_, list[i], item_field, "expected a path");
      std::string rel = list[i].Scalar();
      fs::path p(rel);
      if (p.is_absolute() || rel.find("..") != std::string::npos) {
        return FieldError(file_, list[i], item_field,
                          "'" + rel + "' must be a relative path inside the task folder");
      }
      if (shipped && !fs::is_regular_file(fs::path(task_->dir) / p)) {
        return FieldError(file_, list[i], item_field, "file '" + rel + "' does not exist");
      }
      if (!shipped && fs::exists(fs::path(task_->dir) / p)) {
        return FieldError(file_, list[i], item_field,
                          "'" + rel + "' is shipped, but files.starter is false (the agent writes it)");
      }
      out.push_back(rel);
    }
    if (required && out.empty()) return FieldError(file_, list, field, "must not be empty");
    return out;
  }

  Status DecodeFiles(const YAML::Node& root) {
    YAML::Node files = root["files"];
    if (!files.IsDefined()) return FieldError(file_, root, "files", "missing");
    if (!files.IsMap()) return FieldError(file_, files, "files", "expected a mapping");
    ARENA_RETURN_IF_ERROR(CheckKeys(files, "files", {"editable", "harness", "starter"}));
    if (YAML::Node starter = files["starter"]; starter.IsDefined()) {
      if (!starter.IsScalar() || (starter.Scalar() != "true" && starter.Scalar() != "false")) {
        return FieldError(file_, starter, "files.starter", "expected true or false");
      }
      task_->starter = starter.Scalar() == "true";
    }
    ARENA_ASSIGN_OR_RETURN(task_->editable, FileList(files, "editable", true, task_->starter));
    ARENA_ASSIGN_OR_RETURN(task_->harness, FileList(files, "harness", false));
    for (const auto& e : task_->editable) {
      if (std::count(task_->harness.begin(), task_->harness.end(), e)) {
        return FieldError(file_, files["harness"], "files.harness",
                          "'" + e + "' is listed as both editable and harness");
      }
      if (e == "task.yaml") {
        return FieldError(file_, files["editable"], "files.editable",
                          "task.yaml can never be editable");
      }
    }
    return OkStatus();
  }

  Result<std::vector<TensorSpec>> Tensors(const YAML::Node& iface, const std::string& key,
                                          bool required) {
    const std::string field = "interface." + key;
    YAML::Node list = iface[key];
    std::vector<TensorSpec> out;
    if (!list.IsDefined() || list.IsNull()) {
      if (required) return FieldError(file_, iface, field, "missing");
      return out;
    }
    if (!list.IsSequence()) return FieldError(file_, list, field, "expected a list");
    std::set<std::string> names;
    for (size_t i = 0; i < list.size(); ++i) {
      const YAML::Node t = list[i];
      const std::string f = field + "[" + std::to_string(i) + "]";
      if (!t.IsMap()) return FieldError(file_, t, f, "expected a mapping");
      ARENA_RETURN_IF_ERROR(CheckKeys(t, f, {"name", "dtype", "shape", "init"}));
      TensorSpec spec;
      ARENA_ASSIGN_OR_RETURN(spec.name, RequiredString(t, "name", f + ".name"));
      if (!names.insert(spec.name).second) {
        return FieldError(file_, t["name"], f + ".name", "duplicate tensor '" + spec.name + "'");
      }
      ARENA_ASSIGN_OR_RETURN(spec.dtype, RequiredString(t, "dtype", f + ".dtype"));
      if (!KnownDtypes().count(spec.dtype)) {
        return FieldError(file_, t["dtype"], f + ".dtype", "unknown dtype '" + spec.dtype + "'");
      }
      YAML::Node shape = t["shape"];
      if (!shape.IsDefined() || !shape.IsSequence()) {
        return FieldError(file_, shape.IsDefined() ? shape : t, f + ".shape",
                          "expected a list of extents (numbers or expressions)");
      }
      for (const auto& d : shape) {
        if (!d.IsScalar()) return FieldError(file_, d, f + ".shape", "expected an extent");
        spec.shape.push_back(d.Scalar());
      }
      if (t["init"].IsDefined()) {
        if (!t["init"].IsMap()) return FieldError(file_, t["init"], f + ".init", "expected a mapping");
        spec.init = YamlToJson(t["init"]);
      }
      spec.line = t.Mark().line + 1;
      spec.column = t.Mark().column + 1;
      out.push_back(std::move(spec));
    }
    if (required && out.empty()) return FieldError(file_, list, field, "must not be empty");
    return out;
  }

  Status DecodeInterface(const YAML::Node& root) {
    YAML::Node iface = root["interface"];
    if (!iface.IsDefined()) return FieldError(file_, root, "interface", "missing");
    if (!iface.IsMap()) return FieldError(file_, iface, "interface", "expected a mapping");
    ARENA_RETURN_IF_ERROR(CheckKeys(iface, "interface", {"inputs", "outputs", "inplace"}));
    ARENA_ASSIGN_OR_RETURN(task_->inputs, Tensors(iface, "inputs", true));
    ARENA_ASSIGN_OR_RETURN(task_->outputs, Tensors(iface, "outputs", false));
    YAML::Node inplace = iface["inplace"];
    if (inplace.IsDefined() && !inplace.IsNull()) {
      if (!inplace.IsSequence()) return FieldError(file_, inplace, "interface.inplace", "expected a list");
      for (const auto& n : inplace) {
        auto it = std::find_if(task_->inputs.begin(), task_->inputs.end(),
                               [&](const TensorSpec& t) { return t.name == n.Scalar(); });
        if (it == task_->inputs.end()) {
          return FieldError(file_, n, "interface.inplace", "'" + n.Scalar() + "' is not an input");
        }
        task_->inplace.push_back(n.Scalar());
      }
    }
    if (task_->outputs.empty() && task_->inplace.empty()) {
      return FieldError(file_, iface, "interface.outputs",
                        "a kernel needs outputs or in-place inputs");
    }
    for (const auto& o : task_->outputs) {
      for (const auto& i : task_->inputs) {
        if (o.name == i.name) {
          return FieldError(file_, iface["outputs"], "interface.outputs",
                            "'" + o.name + "' is both an input and an output");
        }
      }
    }
    return OkStatus();
  }

  Status DecodeCost(const YAML::Node& root) {
    YAML::Node cost = root["cost"];
    if (!cost.IsDefined()) return FieldError(file_, root, "cost", "missing (bytes and flops)");
    if (!cost.IsMap()) return FieldError(file_, cost, "cost", "expected a mapping");
    ARENA_RETURN_IF_ERROR(CheckKeys(cost, "cost", {"bytes", "flops"}));
    ARENA_ASSIGN_OR_RETURN(task_->bytes_expr, RequiredString(cost, "bytes", "cost.bytes"));
    ARENA_ASSIGN_OR_RETURN(task_->flops_expr, RequiredString(cost, "flops", "cost.flops"));
    return OkStatus();
  }

  Result<Configuration> DecodeConfig(const YAML::Node& n, ConfigKind kind,
                                     const std::string& field) {
    if (!n.IsMap()) return FieldError(file_, n, field, "expected a mapping of parameters");
    Configuration c;
    c.kind = kind;
    c.line = n.Mark().line + 1;
    c.column = n.Mark().column + 1;
    std::string auto_name;
    for (const auto& kv : n) {
      const std::string key = kv.first.Scalar();
      if (key == "name") {
        c.name = kv.second.Scalar();
        continue;
      }
      if (!kv.second.IsScalar()) {
        return FieldError(file_, kv.second, field + "." + key, "expected a scalar parameter");
      }
      Json v = YamlToJson(kv.second);
      c.params[key] = v;
      if (v.is_number()) c.numeric[key] = v.get<double>();
      if (v.is_boolean()) c.numeric[key] = v.get<bool>() ? 1 : 0;
      if (!auto_name.empty()) auto_name += "_";
      auto_name += key + (v.is_string() ? v.get<std::string>() : v.dump());
    }
    if (c.params.empty()) return FieldError(file_, n, field, "a configuration needs parameters");
    if (c.name.empty()) c.name = std::string(ConfigKindName(kind)) + "_" + auto_name;
    // Every shape and the cost model must evaluate for this configuration.
    auto check = [&](const std::vector<TensorSpec>& tensors) -> Status {
      for (const auto& t : tensors) {
        for (const auto& d : t.shape) {
          auto e = EvaluateExtent(d, c.numeric);
          if (!e.ok()) {
            return FieldError(file_, n, field,
                              "shape of '" + t.name + "': " + e.status().message());
          }
        }
      }
      return OkStatus();
    };
    ARENA_RETURN_IF_ERROR(check(task_->inputs));
    ARENA_RETURN_IF_ERROR(check(task_->outputs));
    auto bytes = EvaluateExpression(task_->bytes_expr, c.numeric);
    if (!bytes.ok()) return FieldError(file_, n, field, "cost.bytes: " + bytes.status().message());
    auto flops = EvaluateExpression(task_->flops_expr, c.numeric);
    if (!flops.ok()) return FieldError(file_, n, field, "cost.flops: " + flops.status().message());
    c.bytes = *bytes;
    c.flops = *flops;
    return c;
  }

  Status DecodeConfigs(const YAML::Node& root) {
    YAML::Node configs = root["configs"];
    if (!configs.IsDefined()) return FieldError(file_, root, "configs", "missing");
    if (!configs.IsMap()) return FieldError(file_, configs, "configs", "expected a mapping");
    ARENA_RETURN_IF_ERROR(CheckKeys(configs, "configs", {"small", "tuning", "heldout"}));
    if (configs["small"].IsDefined()) {
      ARENA_ASSIGN_OR_RETURN(Configuration c,
                             DecodeConfig(configs["small"], ConfigKind::kSmall, "configs.small"));
      if (!configs["small"]["name"].IsDefined()) c.name = "small";
      task_->configs.push_back(std::move(c));
    }
    for (ConfigKind kind : {ConfigKind::kTuning, ConfigKind::kHeldout}) {
      const std::string key = ConfigKindName(kind);
      YAML::Node list = configs[key];
      const std::string field = "configs." + key;
      if (!list.IsDefined()) return FieldError(file_, configs, field, "missing");
      if (!list.IsSequence() || list.size() == 0) {
        return FieldError(file_, list, field, "expected a non-empty list of configurations");
      }
      for (size_t i = 0; i < list.size(); ++i) {
        ARENA_ASSIGN_OR_RETURN(
            Configuration c, DecodeConfig(list[i], kind, field + "[" + std::to_string(i) + "]"));
        task_->configs.push_back(std::move(c));
      }
    }
    std::set<std::string> names;
    for (const auto& c : task_->configs) {
      if (!names.insert(c.name).second) {
        return InvalidArgument(file_ + ":" + std::to_string(c.line) + ":" +
                               std::to_string(c.column) +
                               ": configs: duplicate configuration name '" + c.name + "'");
      }
    }
    // A held-out configuration identical to a tuning one is not held out.
    for (const auto& h : task_->configs) {
      if (h.kind != ConfigKind::kHeldout) continue;
      for (const auto& t : task_->configs) {
        if (t.kind != ConfigKind::kTuning) continue;
        Json hp = h.params, tp = t.params;
        if (hp == tp) {
          return InvalidArgument(file_ + ":" + std::to_string(h.line) +
                                 ": configs.heldout: '" + h.name +
                                 "' has the same parameters as tuning configuration '" +
                                 t.name + "'");
        }
      }
    }
    return OkStatus();
  }

  Status DecodeTolerances(const YAML::Node& root) {
    YAML::Node tol = root["tolerances"];
    if (!tol.IsDefined() || tol.IsNull()) return OkStatus();
    if (!tol.IsMap()) return FieldError(file_, tol, "tolerances", "expected a mapping by dtype");
    for (const auto& kv : tol) {
      const std::string dtype = kv.first.Scalar();
      const std::string f = "tolerances." + dtype;
      if (!KnownDtypes().count(dtype)) return FieldError(file_, kv.first, f, "unknown dtype");
      if (!kv.second.IsMap()) return FieldError(file_, kv.second, f, "expected {atol, rtol}");
      ARENA_RETURN_IF_ERROR(CheckKeys(kv.second, f, {"atol", "rtol"}));
      Tolerance t;
      for (const char* k : {"atol", "rtol"}) {
        YAML::Node v = kv.second[k];
        if (!v.IsDefined()) return FieldError(file_, kv.second, f + "." + k, "missing");
        ARENA_ASSIGN_OR_RETURN(double d, Number(v, f + "." + k));
        if (d < 0) return FieldError(file_, v, f + "." + k, "must be >= 0");
        (std::string(k) == "atol" ? t.atol : t.rtol) = d;
      }
      task_->tolerances[dtype] = t;
    }
    return OkStatus();
  }

  Status DecodeCorrectness(const YAML::Node& root) {
    YAML::Node c = root["correctness"];
    if (!c.IsDefined() || c.IsNull()) return OkStatus();
    if (!c.IsMap()) return FieldError(file_, c, "correctness", "expected a mapping");
    ARENA_RETURN_IF_ERROR(CheckKeys(c, "correctness", {"trials"}));
    if (c["trials"].IsDefined()) {
      ARENA_ASSIGN_OR_RETURN(double t, Number(c["trials"], "correctness.trials"));
      if (t < 1 || t > 100 || t != static_cast<int>(t)) {
        return FieldError(file_, c["trials"], "correctness.trials", "expected a whole number in [1, 100]");
      }
      task_->trials = static_cast<int>(t);
    }
    return OkStatus();
  }

  Status DecodeTiming(const YAML::Node& root) {
    YAML::Node t = root["timing"];
    if (!t.IsDefined() || t.IsNull()) return OkStatus();
    if (!t.IsMap()) return FieldError(file_, t, "timing", "expected a mapping");
    ARENA_RETURN_IF_ERROR(CheckKeys(t, "timing", {"warmup_ms", "repetitions", "graph_below_us"}));
    if (t["warmup_ms"].IsDefined()) {
      ARENA_ASSIGN_OR_RETURN(task_->timing.warmup_ms, Number(t["warmup_ms"], "timing.warmup_ms"));
    }
    if (t["repetitions"].IsDefined()) {
      ARENA_ASSIGN_OR_RETURN(double r, Number(t["repetitions"], "timing.repetitions"));
      if (r < 100) {
        return FieldError(file_, t["repetitions"], "timing.repetitions",
                          "at least 100 samples are needed for a stable median");
      }
      task_->timing.repetitions = static_cast<int>(r);
    }
    if (t["graph_below_us"].IsDefined()) {
      ARENA_ASSIGN_OR_RETURN(task_->timing.graph_below_us,
                             Number(t["graph_below_us"], "timing.graph_below_us"));
    }
    return OkStatus();
  }

  Status DecodeTunables(const YAML::Node& root) {
    YAML::Node list = root["tunables"];
    if (!list.IsDefined() || list.IsNull()) return OkStatus();
    if (!list.IsSequence()) return FieldError(file_, list, "tunables", "expected a list");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string f = "tunables[" + std::to_string(i) + "]";
      const YAML::Node n = list[i];
      if (!n.IsMap()) return FieldError(file_, n, f, "expected a mapping");
      ARENA_RETURN_IF_ERROR(CheckKeys(n, f, {"name", "values", "default"}));
      Tunable t;
      ARENA_ASSIGN_OR_RETURN(t.name, RequiredString(n, "name", f + ".name"));
      if (!n["values"].IsSequence() || n["values"].size() == 0) {
        return FieldError(file_, n["values"].IsDefined() ? n["values"] : n, f + ".values",
                          "expected a non-empty list");
      }
      t.values = YamlToJson(n["values"]);
      if (!n["default"].IsDefined()) return FieldError(file_, n, f + ".default", "missing");
      t.default_value = YamlToJson(n["default"]);
      if (std::find(t.values.begin(), t.values.end(), t.default_value) == t.values.end()) {
        return FieldError(file_, n["default"], f + ".default", "not one of the values");
      }
      t.default_line = n["default"].Mark().line + 1;
      t.default_column = n["default"].Mark().column + 1;
      task_->tunables.push_back(std::move(t));
    }
    return OkStatus();
  }

  std::string file_;
  TaskSpec* task_;
};

}  // namespace

std::vector<const Configuration*> TaskSpec::ConfigsOfKind(ConfigKind kind) const {
  std::vector<const Configuration*> out;
  for (const auto& c : configs) {
    if (c.kind == kind) out.push_back(&c);
  }
  return out;
}

const Configuration* TaskSpec::FindConfig(const std::string& config_name) const {
  for (const auto& c : configs) {
    if (c.name == config_name) return &c;
  }
  return nullptr;
}

Json TaskSpec::ToJson() const {
  auto tensors = [](const std::vector<TensorSpec>& ts) {
    Json out = Json::array();
    for (const auto& t : ts) {
      out.push_back({{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}, {"init", t.init}});
    }
    return out;
  };
  Json tol = Json::object();
  for (const auto& [dtype, t] : tolerances) tol[dtype] = {{"atol", t.atol}, {"rtol", t.rtol}};
  Json tun = Json::array();
  for (const auto& t : tunables) {
    tun.push_back({{"name", t.name}, {"values", t.values}, {"default", t.default_value}});
  }
  return Json{{"id", id},
              {"family", family},
              {"dir", dir},
              {"editable", editable},
              {"harness", harness},
              {"inputs", tensors(inputs)},
              {"outputs", tensors(outputs)},
              {"inplace", inplace},
              {"tolerances", tol},
              {"trials", trials},
              {"timing",
               {{"warmup_ms", timing.warmup_ms},
                {"repetitions", timing.repetitions},
                {"graph_below_us", timing.graph_below_us}}},
              {"tunables", tun},
              {"family_section", family_json}};
}

namespace {

std::string TunableText(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

}  // namespace

// Each tunable is a constant of an editable file, and its default is the
// value written there: a search starts from the shipped baseline.
Status CheckTunables(const TaskSpec& task) {
  if (!task.starter && !task.tunables.empty()) {
    return InvalidArgument(task.yaml_path + ": tunables: a task whose editable files are not shipped "
                           "(files.starter: false) has no constants to tune");
  }
  std::map<std::string, std::string> texts;
  for (const auto& rel : task.editable) {
    std::ifstream in(fs::path(task.dir) / rel, std::ios::binary);
    texts[rel].assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  for (size_t i = 0; i < task.tunables.size(); ++i) {
    const Tunable& t = task.tunables[i];
    const std::string where = task.yaml_path + ":" + std::to_string(t.default_line) + ":" +
                              std::to_string(t.default_column) + ": tunables[" +
                              std::to_string(i) + "]";
    bool found = false;
    for (const auto& [rel, text] : texts) {
      auto site = FindTunable(text, t.name);
      if (!site) continue;
      found = true;
      if (site->value != TunableText(t.default_value)) {
        return InvalidArgument(where + ".default: " + TunableText(t.default_value) + ", but " +
                               rel + ":" + std::to_string(site->line) + " sets " + t.name +
                               " to " + site->value);
      }
      break;
    }
    if (!found) {
      return InvalidArgument(where + ".name: '" + t.name +
                             "' is not a constant of the editable files (NAME = value, "
                             "#define NAME value or constexpr T NAME = value)");
    }
  }
  return OkStatus();
}

Result<TaskSpec> LoadTask(const std::string& tasks_root, const std::string& yaml_path) {
  TaskSpec task;
  std::error_code ec;
  fs::path path = fs::absolute(yaml_path, ec);
  fs::path root = fs::absolute(tasks_root, ec);
  if (!fs::is_regular_file(path)) return NotFound(yaml_path + ": no such task file");
  task.yaml_path = yaml_path;
  task.dir = path.parent_path().lexically_normal().string();
  fs::path rel = path.parent_path().lexically_normal().lexically_relative(root.lexically_normal());
  std::vector<std::string> parts;
  for (const auto& p : rel) parts.push_back(p.string());
  if (parts.size() != 3 || parts[0] == "..") {
    return InvalidArgument(yaml_path + ": a task lives at <tasks>/<family>/<suite>/<task>/task.yaml (under " +
                           tasks_root + ")");
  }
  task.id = rel.generic_string();
  task.suite = parts[1];
  task.name = parts[2];

  ARENA_RETURN_IF_ERROR(CheckTaskFolder(task.dir, task.id, {"task.yaml"}));
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) return NotFound(yaml_path + ": cannot be read");
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // Refused before yaml-cpp sees it: an alias bomb would expand without
  // bound, bytes that are not UTF-8 would abort the JSON the core writes.
  if (Status st = CheckTaskFileText(yaml_path, text); !st.ok()) return st;
  YAML::Node root_node;
  try {
    root_node = YAML::Load(text);
    YAML::Node family = root_node.IsMap() ? root_node["family"] : YAML::Node();
    if (family.IsDefined() && family.IsScalar() && family.Scalar() != parts[0]) {
      return FieldError(yaml_path, family, "family",
                        "'" + family.Scalar() + "' but the task lives under tasks/" + parts[0]);
    }
    ARENA_RETURN_IF_ERROR(TaskDecoder(yaml_path, &task).Decode(root_node));
  } catch (const YAML::Exception& e) {
    return YamlParseError(yaml_path, e);
  }
  // What reaches an agent's workspace or a harness is a file of the task.
  std::vector<std::string> files = task.starter ? task.editable : std::vector<std::string>{};
  files.insert(files.end(), task.harness.begin(), task.harness.end());
  ARENA_RETURN_IF_ERROR(CheckTaskFolder(task.dir, task.id, files));
  ARENA_RETURN_IF_ERROR(CheckTunables(task));
  return task;
}

Result<std::vector<std::string>> FindTaskFiles(const std::string& tasks_root) {
  std::error_code ec;
  if (!fs::is_directory(tasks_root, ec)) return NotFound(tasks_root + ": not a directory");
  std::vector<std::string> out;
  for (auto it = fs::recursive_directory_iterator(tasks_root, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) return Internal(tasks_root + ": " + ec.message());
    if (it->is_regular_file() && it->path().filename() == "task.yaml") {
      out.push_back(it->path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool TaskMatches(const std::string& task_id, const std::string& selector) {
  std::stringstream ss(selector);
  std::string part;
  while (std::getline(ss, part, ',')) {
    while (!part.empty() && part.back() == '/') part.pop_back();
    if (part.empty()) continue;
    if (part == "all" || part == task_id) return true;
    if (task_id.size() > part.size() && task_id.compare(0, part.size(), part) == 0 &&
        task_id[part.size()] == '/') {
      return true;
    }
  }
  return false;
}

}  // namespace arena
