#include "core/section.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <tuple>
#include <utility>

#include <yaml-cpp/yaml.h>

#include "core/task.h"
#include "core/task_file_guard.h"
#include "core/yaml_util.h"

namespace arena {
namespace {

std::string Place(const std::string& file, int line, int column) {
  return line > 0 ? file + ":" + std::to_string(line) + ":" + std::to_string(std::max(column, 1))
                  : file;
}

const char* Expected(FieldType type) {
  switch (type) {
    case FieldType::kString: return "expected a string";
    case FieldType::kStringList: return "expected a list of strings";
    case FieldType::kStringMap: return "expected a mapping of names to strings";
    case FieldType::kInt: return "expected a whole number";
    case FieldType::kNumber: return "expected a number";
    case FieldType::kBool: return "expected true or false";
  }
  return "unexpected";
}

bool ParseInt(const std::string& text, long long* out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end == nullptr || *end != '\0') return false;
  if (out != nullptr) *out = v;
  return true;
}

bool ParseNumber(const std::string& text, double* out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end == nullptr || *end != '\0' || !std::isfinite(v)) return false;
  if (out != nullptr) *out = v;
  return true;
}

bool ParseBool(const std::string& text, bool* out) {
  if (text != "true" && text != "false") return false;
  if (out != nullptr) *out = text == "true";
  return true;
}

// Where an error about the section as a whole goes: the section, else
// `family:`.
std::pair<int, int> SectionPlace(const TaskSpec& task) {
  if (task.family_section.line > 0) return {task.family_section.line, task.family_section.column};
  return {task.family_line, task.family_column};
}

}  // namespace

const YamlValue* YamlValue::Find(const std::string& name) const {
  if (kind != Kind::kMap) return nullptr;
  for (size_t i = 0; i < keys.size() && i < items.size(); ++i) {
    if (keys[i].scalar == name) return &items[i];
  }
  return nullptr;
}

const YamlValue* Section::Field(const std::string& field) const { return value_.Find(field); }

bool Section::Has(const std::string& field) const { return Field(field) != nullptr; }

std::string Section::String(const std::string& field, const std::string& fallback) const {
  const YamlValue* v = Field(field);
  return v != nullptr && v->kind == YamlValue::Kind::kScalar ? v->scalar : fallback;
}

std::vector<std::string> Section::List(const std::string& field) const {
  std::vector<std::string> out;
  if (const YamlValue* v = Field(field); v != nullptr && v->kind == YamlValue::Kind::kList) {
    for (const auto& item : v->items) out.push_back(item.scalar);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> Section::Map(const std::string& field) const {
  std::vector<std::pair<std::string, std::string>> out;
  if (const YamlValue* v = Field(field); v != nullptr && v->kind == YamlValue::Kind::kMap) {
    for (size_t i = 0; i < v->keys.size(); ++i) out.emplace_back(v->keys[i].scalar, v->items[i].scalar);
  }
  return out;
}

long long Section::Int(const std::string& field, long long fallback) const {
  long long v = fallback;
  return Has(field) && ParseInt(String(field), &v) ? v : fallback;
}

double Section::Number(const std::string& field, double fallback) const {
  double v = fallback;
  return Has(field) && ParseNumber(String(field), &v) ? v : fallback;
}

bool Section::Bool(const std::string& field, bool fallback) const {
  bool v = fallback;
  return Has(field) && ParseBool(String(field), &v) ? v : fallback;
}

nlohmann::json Section::ToJson() const {
  nlohmann::json out = nlohmann::json::object();
  for (const FieldSpec& f : fields_) {
    if (!Has(f.name)) continue;
    switch (f.type) {
      case FieldType::kString: out[f.name] = String(f.name); break;
      case FieldType::kStringList: out[f.name] = List(f.name); break;
      case FieldType::kStringMap: {
        nlohmann::json m = nlohmann::json::object();
        for (const auto& [k, v] : Map(f.name)) m[k] = v;
        out[f.name] = m;
        break;
      }
      case FieldType::kInt: out[f.name] = Int(f.name, 0); break;
      case FieldType::kNumber: out[f.name] = Number(f.name, 0); break;
      case FieldType::kBool: out[f.name] = Bool(f.name, false); break;
    }
  }
  return out;
}

Status Section::At(const YamlValue* where, const std::string& field,
                   const std::string& message) const {
  const bool placed = where != nullptr && where->line > 0;
  return InvalidArgument(Place(file_, placed ? where->line : line_, placed ? where->column : column_) +
                         ": " + name_ + "." + field + ": " + message);
}

Status Section::Error(const std::string& field, const std::string& message) const {
  return At(Field(field), field, message);
}

Status Section::ItemError(const std::string& field, size_t index, const std::string& message) const {
  const YamlValue* v = Field(field);
  if (v != nullptr && v->kind == YamlValue::Kind::kList && index < v->items.size()) {
    return At(&v->items[index], field, message);
  }
  if (v != nullptr && v->kind == YamlValue::Kind::kMap && index < v->keys.size()) {
    return At(&v->keys[index], field + "." + v->keys[index].scalar, message);
  }
  return At(v, field, message);
}

Status Section::MapValueError(const std::string& field, size_t index,
                              const std::string& message) const {
  const YamlValue* v = Field(field);
  if (v != nullptr && v->kind == YamlValue::Kind::kMap && index < v->items.size()) {
    return At(&v->items[index], field + "." + v->keys[index].scalar, message);
  }
  return At(v, field, message);
}

Result<Section> Section::Decode(Section s, const SectionSchema& schema) {
  s.name_ = schema.name;
  s.fields_ = schema.fields;
  const YamlValue& v = s.value_;
  std::string required;
  for (const auto& f : schema.fields) {
    if (f.required) required += (required.empty() ? "" : ", ") + f.name;
  }
  if (v.kind == YamlValue::Kind::kNone) {
    if (required.empty()) return s;  // an empty section is one with no fields
    return InvalidArgument(Place(s.file_, s.line_, s.column_) + ": " + schema.name +
                           ": missing section (" + required + ")");
  }
  if (v.kind != YamlValue::Kind::kMap) {
    return InvalidArgument(Place(s.file_, v.line, v.column) + ": " + schema.name +
                           ": expected a mapping (" + required + ")");
  }
  for (size_t i = 0; i < v.keys.size(); ++i) {
    const std::string& key = v.keys[i].scalar;
    auto spec = std::find_if(schema.fields.begin(), schema.fields.end(),
                             [&](const FieldSpec& f) { return f.name == key; });
    if (spec == schema.fields.end()) return s.At(&v.keys[i], key, "unknown field");
    const YamlValue& value = v.items[i];
    bool ok = false;
    switch (spec->type) {
      case FieldType::kString:
        ok = value.kind == YamlValue::Kind::kScalar && !value.scalar.empty();
        break;
      case FieldType::kStringList:
        ok = value.kind == YamlValue::Kind::kList;
        for (size_t j = 0; ok && j < value.items.size(); ++j) {
          if (value.items[j].kind != YamlValue::Kind::kScalar || value.items[j].scalar.empty()) {
            return s.At(&value.items[j], key, Expected(spec->type));
          }
        }
        break;
      case FieldType::kStringMap:
        ok = value.kind == YamlValue::Kind::kMap;
        for (size_t j = 0; ok && j < value.items.size(); ++j) {
          if (value.items[j].kind != YamlValue::Kind::kScalar || value.items[j].scalar.empty()) {
            return s.At(&value.items[j], key + "." + value.keys[j].scalar, "expected a string");
          }
        }
        break;
      case FieldType::kInt:
        ok = value.kind == YamlValue::Kind::kScalar && ParseInt(value.scalar, nullptr);
        break;
      case FieldType::kNumber:
        ok = value.kind == YamlValue::Kind::kScalar && ParseNumber(value.scalar, nullptr);
        break;
      case FieldType::kBool:
        ok = value.kind == YamlValue::Kind::kScalar && ParseBool(value.scalar, nullptr);
        break;
    }
    if (!ok) return s.At(&value, key, Expected(spec->type));
    if (!spec->one_of.empty() &&
        std::find(spec->one_of.begin(), spec->one_of.end(), value.scalar) == spec->one_of.end()) {
      std::string allowed;
      for (const auto& a : spec->one_of) allowed += (allowed.empty() ? "" : " or ") + a;
      return s.At(&value, key, "expected " + allowed);
    }
  }
  for (const auto& f : schema.fields) {
    if (f.required && v.Find(f.name) == nullptr) return s.At(nullptr, f.name, "missing");
  }
  return s;
}

Result<Section> DecodeSection(const TaskSpec& task, const SectionSchema& schema) {
  Section s;
  s.file_ = task.yaml_path;
  s.value_ = task.family_section;
  std::tie(s.line_, s.column_) = SectionPlace(task);
  return Section::Decode(std::move(s), schema);
}

Result<Section> DecodeYamlFile(const std::string& path, const SectionSchema& schema) {
  Section s;
  s.file_ = path;
  s.line_ = 1;
  s.column_ = 1;
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) return InvalidArgument(path + ": cannot read");
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // The task files' guard before yaml-cpp sees the bytes: an alias bomb
  // would expand without bound, and bytes that are not UTF-8 would make the
  // decoded values impossible to store (JSON takes UTF-8 only).
  ARENA_RETURN_IF_ERROR(CheckTaskFileText(path, text));
  try {
    s.value_ = ToYamlValue(YAML::Load(text));
  } catch (const YAML::Exception& e) {
    return YamlParseError(path, e);
  }
  return Section::Decode(std::move(s), schema);
}

Result<Section> DecodeNothing(const std::string& what, const SectionSchema& schema) {
  Section s;
  s.file_ = what;
  return Section::Decode(std::move(s), schema);
}

Status TaskRequirementError(const TaskSpec& task, const std::string& field,
                            const std::string& message) {
  const auto [line, column] = SectionPlace(task);
  return InvalidArgument(Place(task.yaml_path, std::max(line, 1), column) + ": " + field + ": " +
                         message);
}

}  // namespace arena
