// A bounded fuzz test of the task loader and of the agents' configuration
// decoder: seeded mutations of real task files (one per family) and of an
// agent's configuration must each load or be refused with a message that
// names the file and a line:column, never crash, throw or hang.
#include <chrono>
#include <filesystem>
#include <random>
#include <regex>

#include <gtest/gtest.h>

#include "core/agent.h"
#include "core/family.h"
#include "core/files.h"
#include "core/run.h"

namespace arena {
namespace {
namespace fs = std::filesystem;

constexpr const char* kSeeds[] = {
    "tasks/triton2triton/elementwise/gelu",
    "tasks/hip2hip/elementwise/silu_mul",
    "tasks/torch2hip/fused/linear_bias_relu",
};

constexpr int kMutations = 1000;  // per seed file; about a second each

// Pieces of YAML that break structure in interesting ways.
constexpr const char* kTokens[] = {
    "&a ", "*a", ": ", "- ", "[", "]", "{", "}", ",", "\"", "'", "#", "\t", "\n", "  ",
    "\xff", "\x01", "!!binary ", "? ", "|", ">", "~", "null", "1e999",
    "-1", "0x7fffffffffffffffffff", "n * ", "__import__('os')", "\xc3\x28", "%YAML 1.2\n",
    "---\n", "...\n", "<<: ", "true", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
};

std::string Mutate(const std::string& text, std::mt19937_64& rng) {
  std::string s = text;
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const size_t at = rng() % s.size();
    switch (rng() % 6) {
      case 0: s[at] = static_cast<char>(rng() % 256); break;                 // flip a byte
      case 1: s.insert(at, kTokens[rng() % (sizeof(kTokens) / sizeof(*kTokens))]); break;
      case 2: s.erase(at, 1 + rng() % 16); break;                             // cut
      case 3: s.resize(at); break;                                            // truncate
      case 4: {                                                               // repeat a line
        size_t begin = s.rfind('\n', at);
        begin = begin == std::string::npos ? 0 : begin + 1;
        size_t end = s.find('\n', at);
        end = end == std::string::npos ? s.size() : end + 1;
        s.insert(end, s.substr(begin, end - begin));
        break;
      }
      default: {                                                              // re-indent
        size_t line = s.rfind('\n', at);
        s.insert(line == std::string::npos ? 0 : line + 1, (rng() % 2) ? " " : "    ");
      }
    }
  }
  return s;
}

TEST(TaskLoaderFuzz, MutationsLoadOrAreRefusedWithAPosition) {
  const std::string root = testing::TempDir() + "/fuzz/tasks";
  std::mt19937_64 rng(20261201);
  int refused = 0, loaded = 0;
  for (const char* seed : kSeeds) {
    auto text = ReadFile(std::string(seed) + "/task.yaml");
    ASSERT_TRUE(text.ok()) << seed;
    const std::string rel = fs::path(seed).lexically_relative("tasks").string();
    const std::string dir = root + "/" + rel;
    ASSERT_TRUE(ResetDir(dir).ok());
    for (const auto& e : fs::directory_iterator(seed)) {
      if (e.is_regular_file() && e.path().filename() != "task.yaml" &&
          e.path().filename() != "BUILD.bazel") {
        Status copied = CopyFile(e.path().string(), dir + "/" + e.path().filename().string());
        ASSERT_TRUE(copied.ok()) << copied.message();
      }
    }
    for (int i = 0; i < kMutations; ++i) {
      const std::string mutated = Mutate(*text, rng);
      ASSERT_TRUE(WriteFileAtomic(dir + "/task.yaml", mutated).ok());
      auto start = std::chrono::steady_clock::now();
      Result<TaskCatalog> r = NotFound("");
      try {
        r = ScanTasks(root, rel);
      } catch (const std::exception& ex) {
        FAIL() << seed << " mutation " << i << " threw: " << ex.what() << "\n" << mutated;
      }
      EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5))
          << seed << " mutation " << i << " took too long:\n" << mutated;
      ASSERT_TRUE(r.ok()) << r.status().message();
      if (r->broken.empty()) {
        ++loaded;
        continue;
      }
      ++refused;
      const std::string& message = r->broken.front().error.message();
      EXPECT_NE(message.find(dir + "/task.yaml"), std::string::npos)
          << "the message does not name the file: " << message;
      EXPECT_TRUE(std::regex_search(message, std::regex(R"(task\.yaml:\d+:\d+: )")))
          << "no line:column: " << message << "\n--- mutation " << i << " of " << seed << ":\n"
          << mutated;
    }
  }
  std::cout << "loaded " << loaded << ", refused " << refused << " of "
            << kMutations * (sizeof(kSeeds) / sizeof(*kSeeds)) << " mutations\n";
  EXPECT_GT(refused, 0);
  EXPECT_GT(loaded, 0);
}

TEST(AgentConfigFuzz, MutationsDecodeOrAreRefusedWithAPosition) {
  // The shipped agents' schemas, each with a configuration it accepts.
  const std::vector<std::pair<std::string, std::string>> seeds = {
      {"openai-chat",
       "base_url: http://127.0.0.1:8000/v1\nmodel: m\ntemperature: 0.2\nmax_turns: 30\n"
       "max_tokens_total: 200000\nrequest_timeout_s: 120\ninsecure: false\n"},
      {"claude-code",
       "model: sonnet\ntimeout_s: 900\nextra_args: [--max-turns, 40]\nsandbox: true\n"
       "pass_env: [ANTHROPIC_API_KEY]\n"},
      {"autotune", "max_evals: 40\nmax_passes: 3\nmin_gain: 0.01\n"},
  };
  const std::string path = testing::TempDir() + "/agent_fuzz.yaml";
  std::mt19937_64 rng(20261202);
  int refused = 0, decoded = 0;
  for (const auto& [name, text] : seeds) {
    auto agent = AgentRegistry::Global().Create(name);
    ASSERT_TRUE(agent.ok()) << agent.status().ToString();
    ASSERT_TRUE(WriteFileAtomic(path, text).ok());
    ASSERT_TRUE(DecodeAgentConfig(**agent, name, path).ok()) << name << " refuses its seed";
    const SectionSchema schema = (*agent)->ConfigSchema();
    for (int i = 0; i < kMutations; ++i) {
      const std::string mutated = Mutate(text, rng);
      ASSERT_TRUE(WriteFileAtomic(path, mutated).ok());
      Result<Json> r = NotFound("");
      try {
        r = DecodeAgentConfig(**agent, name, path);
      } catch (const std::exception& ex) {
        FAIL() << name << " mutation " << i << " threw: " << ex.what() << "\n" << mutated;
      }
      if (!r.ok()) {
        ++refused;
        EXPECT_TRUE(std::regex_search(r.status().message(),
                                      std::regex("^" + std::regex_replace(path, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                                                 R"(:\d+:\d+: )")))
            << "no file:line:column: " << r.status().message() << "\n--- mutation " << i
            << " of " << name << ":\n" << mutated;
        continue;
      }
      ++decoded;
      // What decodes can be stored with the run (as JSON, which takes
      // UTF-8 only).
      EXPECT_NO_THROW(r->dump()) << name << " mutation " << i << ":\n" << mutated;
      // What decodes holds only declared fields, each of its declared type.
      for (const auto& [key, value] : r->items()) {
        auto spec = std::find_if(schema.fields.begin(), schema.fields.end(),
                                 [&](const FieldSpec& f) { return f.name == key; });
        ASSERT_NE(spec, schema.fields.end()) << key << " undeclared, from:\n" << mutated;
        switch (spec->type) {
          case FieldType::kInt: EXPECT_TRUE(value.is_number_integer()) << key; break;
          case FieldType::kNumber: EXPECT_TRUE(value.is_number()) << key; break;
          case FieldType::kBool: EXPECT_TRUE(value.is_boolean()) << key; break;
          case FieldType::kString: EXPECT_TRUE(value.is_string()) << key; break;
          case FieldType::kStringList: EXPECT_TRUE(value.is_array()) << key; break;
          case FieldType::kStringMap: EXPECT_TRUE(value.is_object()) << key; break;
        }
      }
    }
  }
  std::cout << "agent configs: decoded " << decoded << ", refused " << refused << "\n";
  EXPECT_GT(refused, 0);
  EXPECT_GT(decoded, 0);
}

}  // namespace
}  // namespace arena
