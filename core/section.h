// A family's section of task.yaml, as the plugin SDK hands it over: the
// family declares the fields it takes, core decodes them and keeps where
// each was written, so that every error names the file, line, column and
// field. No plugin sees the YAML parser.
//
//   static const SectionSchema kSchema = {
//       "triton2triton",
//       {{"entry", FieldType::kString, /*required=*/true},
//        {"reference_dtype", FieldType::kString, false, {"float64", "native"}},
//        {"allowed_ops", FieldType::kStringList}}};
//   ARENA_ASSIGN_OR_RETURN(Section s, DecodeSection(task, kSchema));
//   if (!Good(s.String("entry"))) return s.Error("entry", "expected file.py:function");
//   // -> "tasks/f/s/t/task.yaml:12:10: triton2triton.entry: expected file.py:function"
#ifndef ARENA_CORE_SECTION_H_
#define ARENA_CORE_SECTION_H_

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace arena {

struct TaskSpec;

// A value of task.yaml and where it is written, without the parser's types.
struct YamlValue {
  enum class Kind { kNone, kScalar, kList, kMap };
  Kind kind = Kind::kNone;
  std::string scalar;
  std::vector<YamlValue> items;  // a list's items; a map's values
  std::vector<YamlValue> keys;   // a map's keys (scalars), in file order
  int line = 0, column = 0;      // 1-based; 0: not written in the file

  // The value of a map's key `name` (nullptr: absent, or not a map).
  const YamlValue* Find(const std::string& name) const;
};

enum class FieldType {
  kString,      // a scalar
  kStringList,  // a list of scalars
  kStringMap,   // a mapping of scalars to scalars
  kInt,         // a scalar that is a whole number
  kNumber,      // a scalar that is a finite number
  kBool,        // true or false
};

struct FieldSpec {
  std::string name;
  FieldType type = FieldType::kString;
  bool required = false;
  std::vector<std::string> one_of;  // kString: its only allowed values
};

struct SectionSchema {
  std::string name;  // the section's key in task.yaml: the family's name
  std::vector<FieldSpec> fields;
};

// A decoded section: every field of the schema, checked for presence, type
// and allowed values; nothing else in it (an unknown field is an error).
class Section {
 public:
  bool Has(const std::string& field) const;
  std::string String(const std::string& field, const std::string& fallback = "") const;
  std::vector<std::string> List(const std::string& field) const;
  std::vector<std::pair<std::string, std::string>> Map(const std::string& field) const;
  long long Int(const std::string& field, long long fallback) const;
  double Number(const std::string& field, double fallback) const;
  bool Bool(const std::string& field, bool fallback) const;
  // The decoded fields as JSON, each in its declared type (kInt and
  // kNumber as numbers, kBool as a boolean, the rest as strings).
  nlohmann::json ToJson() const;

  // "FILE:LINE:COLUMN: SECTION.FIELD: message", at the field's value (at
  // the section when the field is absent).
  Status Error(const std::string& field, const std::string& message) const;
  // The same at item `index` of a list field, or at the key of entry
  // `index` of a map field ("SECTION.FIELD.KEY" for a map).
  Status ItemError(const std::string& field, size_t index, const std::string& message) const;
  // At the value of entry `index` of a map field.
  Status MapValueError(const std::string& field, size_t index, const std::string& message) const;

 private:
  friend Result<Section> DecodeSection(const TaskSpec& task, const SectionSchema& schema);
  friend Result<Section> DecodeYamlFile(const std::string& path, const SectionSchema& schema);
  friend Result<Section> DecodeNothing(const std::string& what, const SectionSchema& schema);
  // Checks `s.value_` against `schema` (the three above set where it is).
  static Result<Section> Decode(Section s, const SectionSchema& schema);
  const YamlValue* Field(const std::string& field) const;
  Status At(const YamlValue* where, const std::string& field, const std::string& message) const;

  std::string file_;
  std::string name_;
  std::vector<FieldSpec> fields_;
  YamlValue value_;
  int line_ = 0, column_ = 0;  // the section, else `family:`
};

Result<Section> DecodeSection(const TaskSpec& task, const SectionSchema& schema);

// A whole YAML file as one section (an agent's configuration): its top
// level is the mapping of fields; errors name "FILE:LINE:COLUMN: NAME.FIELD".
// A file that cannot be read or parsed is an error naming it.
Result<Section> DecodeYamlFile(const std::string& path, const SectionSchema& schema);
// No file: the schema's required fields are what is missing.
Result<Section> DecodeNothing(const std::string& what, const SectionSchema& schema);

// An error about `field` of the task as a whole that the family requires
// ("configs.small"), placed at the family's section (else at `family:`).
Status TaskRequirementError(const TaskSpec& task, const std::string& field,
                            const std::string& message);

}  // namespace arena

#endif  // ARENA_CORE_SECTION_H_
