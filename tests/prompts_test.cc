// The prompt an agent gets is assembled from files each plugin ships: the
// frame (core/prompts/agent.md), the family's part (TaskFamily::PromptFile)
// and the platform's cheatsheet (Platform::PromptDir). Every shipped family
// and platform must name files that are there, and a declared part that is
// missing is an error, never a silently shorter prompt.
#include <gtest/gtest.h>

#include "core/device.h"
#include "core/family.h"
#include "core/files.h"
#include "core/platform.h"
#include "core/prompt.h"
#include "core/task.h"

namespace arena {
namespace {

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

DeviceInfo Gpu(const std::string& platform, const std::string& arch) {
  DeviceInfo d;
  d.platform = platform;
  d.index = 0;
  d.name = "test " + arch;
  d.arch = arch;
  return d;
}

TEST(PromptsTest, EveryShippedFamilyShipsItsPart) {
  const auto names = TaskFamilyRegistry::Global().Names();
  ASSERT_GE(names.size(), 3u);
  for (const auto& name : names) {
    auto family = TaskFamilyRegistry::Global().Create(name);
    ASSERT_TRUE(family.ok()) << family.status().ToString();
    const std::string file = (*family)->PromptFile();
    ASSERT_FALSE(file.empty()) << name << " names no prompt";
    auto text = ReadFile(file);
    ASSERT_TRUE(text.ok()) << name << ": " << text.status().ToString();
    EXPECT_GT(text->size(), 200u) << file;
  }
}

TEST(PromptsTest, EveryPlatformProfileHasACheatsheet) {
  for (const DeviceInfo& d : {Gpu("cuda", "sm_90"), Gpu("cuda", "sm_80"), Gpu("rocm", "gfx90a")}) {
    const std::string file = PlatformPromptFile(d);
    ASSERT_FALSE(file.empty()) << d.Describe();
    auto text = ReadFile(file);
    ASSERT_TRUE(text.ok()) << d.Describe() << ": " << text.status().ToString();
    EXPECT_FALSE(text->empty()) << file;
  }
  EXPECT_EQ(PlatformPromptFile(Gpu("cuda", "sm_90")), "plugins/platforms/cuda/prompts/nvidia-hopper.md");
  EXPECT_EQ(PlatformPromptFile(Gpu("no-such-platform", "x")), "");
  EXPECT_EQ(PlatformPromptFile(CpuDevice()), "");  // core's own, compiled in
}

TEST(PromptsTest, ARenderedPromptCarriesEveryPart) {
  auto task = LoadTask("tasks", "tasks/hip2hip/elementwise/silu_mul/task.yaml");
  ASSERT_TRUE(task.ok()) << task.status().ToString();
  auto family = TaskFamilyRegistry::Global().Create(task->family);
  ASSERT_TRUE(family.ok());
  const DeviceInfo h200 = Gpu("cuda", "sm_90");
  auto prompt = RenderPrompt(*task, (*family)->PromptFile(), ".", h200, "./feedback");
  ASSERT_TRUE(prompt.ok()) << prompt.status().ToString();
  auto family_text = ReadFile((*family)->PromptFile());
  auto platform_text = ReadFile(PlatformPromptFile(h200));
  ASSERT_TRUE(family_text.ok() && platform_text.ok());
  EXPECT_NE(prompt->find(FirstLine(*family_text)), std::string::npos);
  EXPECT_NE(prompt->find(FirstLine(*platform_text)), std::string::npos);
  EXPECT_NE(prompt->find(task->id), std::string::npos);
  EXPECT_EQ(prompt->find("{{"), std::string::npos) << "a placeholder left unfilled";
  for (const Configuration* c : task->ConfigsOfKind(ConfigKind::kHeldout)) {
    EXPECT_EQ(prompt->find(c->name), std::string::npos) << "held-out configuration named: " << c->name;
  }
}

TEST(PromptsTest, ADeclaredPartThatIsMissingIsAnError) {
  auto task = LoadTask("tasks", "tasks/hip2hip/elementwise/silu_mul/task.yaml");
  ASSERT_TRUE(task.ok()) << task.status().ToString();
  auto prompt = RenderPrompt(*task, "plugins/no_such_family/prompt.md", ".", CpuDevice(), "./feedback");
  ASSERT_FALSE(prompt.ok());
  EXPECT_NE(prompt.status().message().find("plugins/no_such_family/prompt.md"), std::string::npos)
      << prompt.status().ToString();
  // No family part declared: the one-line contract, not an error; the
  // frame and the CPU's cheatsheet are compiled in, wherever the arena runs.
  auto anywhere = RenderPrompt(*task, "", "/nonexistent", CpuDevice(), "./feedback");
  ASSERT_TRUE(anywhere.ok()) << anywhere.status().ToString();
  EXPECT_NE(anywhere->find(task->id), std::string::npos);
  EXPECT_NE(anywhere->find("Make the kernel faster"), std::string::npos);
}

}  // namespace
}  // namespace arena
