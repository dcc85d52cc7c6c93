#include "core/section.h"

#include <gtest/gtest.h>

#include "core/task.h"
#include "core/yaml_util.h"

namespace arena {
namespace {

// A task whose `fam:` section is `yaml`, written from line 3 of the file.
TaskSpec Task(const std::string& yaml) {
  TaskSpec t;
  t.yaml_path = "tasks/f/s/t/task.yaml";
  t.family = "fam";
  t.family_line = 1;
  t.family_column = 9;
  t.family_section = ToYamlValue(YAML::Load("\n\n" + yaml)["fam"]);
  return t;
}

const SectionSchema kSchema = {"fam",
                               {{"entry", FieldType::kString, /*required=*/true},
                                {"mode", FieldType::kString, false, {"fast", "exact"}},
                                {"ops", FieldType::kStringList},
                                {"params", FieldType::kStringMap}}};

std::string ErrorOf(const std::string& yaml) {
  auto s = DecodeSection(Task(yaml), kSchema);
  return s.ok() ? "" : std::string(s.status().message());
}

TEST(Section, DecodesDeclaredFieldsWithTheirPlaces) {
  auto s = DecodeSection(Task("fam:\n  entry: k.py:run\n  ops: [mm, bmm]\n"
                              "  params: {w: lin.weight, b: lin.bias}\n"),
                         kSchema);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->String("entry"), "k.py:run");
  EXPECT_FALSE(s->Has("mode"));
  EXPECT_EQ(s->String("mode", "fast"), "fast");
  EXPECT_EQ(s->List("ops"), (std::vector<std::string>{"mm", "bmm"}));
  ASSERT_EQ(s->Map("params").size(), 2u);
  EXPECT_EQ(s->Map("params")[1], (std::pair<std::string, std::string>{"b", "lin.bias"}));
  EXPECT_EQ(s->Error("entry", "bad").message(), "tasks/f/s/t/task.yaml:4:10: fam.entry: bad");
  EXPECT_EQ(s->ItemError("ops", 1, "no").message(), "tasks/f/s/t/task.yaml:5:13: fam.ops: no");
  EXPECT_EQ(s->ItemError("params", 1, "no").message(),
            "tasks/f/s/t/task.yaml:6:27: fam.params.b: no");
  EXPECT_EQ(s->MapValueError("params", 0, "no").message(),
            "tasks/f/s/t/task.yaml:6:15: fam.params.w: no");
  // An absent field's error is placed at the section.
  EXPECT_EQ(s->Error("mode", "needed here").message(),
            "tasks/f/s/t/task.yaml:4:3: fam.mode: needed here");
}

TEST(Section, EveryBadFieldIsNamedWhereItIs) {
  EXPECT_EQ(ErrorOf("fam:\n  entry: a\n  colour: red\n"),
            "tasks/f/s/t/task.yaml:5:3: fam.colour: unknown field");
  EXPECT_EQ(ErrorOf("fam:\n  mode: fast\n"), "tasks/f/s/t/task.yaml:4:3: fam.entry: missing");
  EXPECT_EQ(ErrorOf("fam:\n  entry: [a]\n"),
            "tasks/f/s/t/task.yaml:4:10: fam.entry: expected a string");
  EXPECT_EQ(ErrorOf("fam:\n  entry: a\n  mode: slow\n"),
            "tasks/f/s/t/task.yaml:5:9: fam.mode: expected fast or exact");
  EXPECT_EQ(ErrorOf("fam:\n  entry: a\n  ops: mm\n"),
            "tasks/f/s/t/task.yaml:5:8: fam.ops: expected a list of strings");
  EXPECT_EQ(ErrorOf("fam:\n  entry: a\n  ops: [mm, {x: 1}]\n"),
            "tasks/f/s/t/task.yaml:5:13: fam.ops: expected a list of strings");
  EXPECT_EQ(ErrorOf("fam:\n  entry: a\n  params: {w: [1]}\n"),
            "tasks/f/s/t/task.yaml:5:15: fam.params.w: expected a string");
  EXPECT_EQ(ErrorOf("fam: 3\n"), "tasks/f/s/t/task.yaml:3:6: fam: expected a mapping (entry)");
  // No section at all: placed at `family:`.
  EXPECT_EQ(ErrorOf("other: 1\n"), "tasks/f/s/t/task.yaml:1:9: fam: missing section (entry)");
}

TEST(Section, ASchemaWithNothingRequiredTakesNoSection) {
  const SectionSchema optional = {"fam", {{"mode"}}};
  auto s = DecodeSection(Task("other: 1\n"), optional);
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->Has("mode"));
}

TEST(Section, TaskRequirementsArePlacedAtTheSection) {
  EXPECT_EQ(TaskRequirementError(Task("fam:\n  entry: a\n"), "configs.small", "required").message(),
            "tasks/f/s/t/task.yaml:4:3: configs.small: required");
  EXPECT_EQ(TaskRequirementError(Task("x: 1\n"), "configs.small", "required").message(),
            "tasks/f/s/t/task.yaml:1:9: configs.small: required");
}

}  // namespace
}  // namespace arena
