#include "core/section.h"

#include <fstream>

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

// A whole file as one section: an agent's configuration.
class YamlFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& text) {
    const std::string path = ::testing::TempDir() + "/agent.yaml";
    std::ofstream(path) << text;
    return path;
  }
  const SectionSchema schema_ = {"agent",
                                 {{"model", FieldType::kString, /*required=*/true},
                                  {"turns", FieldType::kInt},
                                  {"temperature", FieldType::kNumber},
                                  {"insecure", FieldType::kBool},
                                  {"args", FieldType::kStringList}}};
};

TEST_F(YamlFileTest, FieldsAreDecodedInTheirTypes) {
  const std::string path =
      Write("model: m1\nturns: 40\ntemperature: 0.5\ninsecure: true\nargs: [--x, 40]\n");
  auto s = DecodeYamlFile(path, schema_);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->Int("turns", 0), 40);
  EXPECT_DOUBLE_EQ(s->Number("temperature", 0), 0.5);
  EXPECT_TRUE(s->Bool("insecure", false));
  const nlohmann::json j = s->ToJson();
  EXPECT_EQ(j, nlohmann::json::parse(R"({"model": "m1", "turns": 40, "temperature": 0.5,
                                         "insecure": true, "args": ["--x", "40"]})"));
  EXPECT_TRUE(j["turns"].is_number_integer());
}

TEST_F(YamlFileTest, ErrorsNameFileLineColumnAndField) {
  auto error = [&](const std::string& text) {
    const std::string path = Write(text);
    auto s = DecodeYamlFile(path, schema_);
    EXPECT_FALSE(s.ok()) << text;
    std::string m = s.ok() ? "" : s.status().message();
    return m.substr(0, path.size()) == path ? m.substr(path.size()) : "not placed: " + m;
  };
  EXPECT_EQ(error("model: m\nturns: 4.5\n"), ":2:8: agent.turns: expected a whole number");
  EXPECT_EQ(error("model: m\ntemperature: hot\n"), ":2:14: agent.temperature: expected a number");
  EXPECT_EQ(error("model: m\ntemperature: .nan\n"), ":2:14: agent.temperature: expected a number");
  EXPECT_EQ(error("model: m\ninsecure: yes\n"), ":2:11: agent.insecure: expected true or false");
  EXPECT_EQ(error("model: m\nturn: 3\n"), ":2:1: agent.turn: unknown field");
  EXPECT_EQ(error("turns: 3\n"), ":1:1: agent.model: missing");
  EXPECT_EQ(error("model: [a\n"), ":2:1: end of sequence flow not found");
  auto missing = DecodeYamlFile(::testing::TempDir() + "/no_such.yaml", schema_);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no_such.yaml: cannot read"), std::string::npos);
}

TEST_F(YamlFileTest, NoFileIsMissingItsRequiredFields) {
  auto s = DecodeNothing("no --agent-config given", schema_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "no --agent-config given: agent: missing section (model)");
  EXPECT_TRUE(DecodeNothing("none", {"agent", {{"turns", FieldType::kInt}}}).ok());
}

}  // namespace
}  // namespace arena
