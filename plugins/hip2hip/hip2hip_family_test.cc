// The hip2hip family against the family conformance kit: on a machine
// without a GPU both subjects are compiled (nvcc through the HIP-on-CUDA
// layer, and hipcc for AMD gfx90a where installed) and every check and
// timing says why it is skipped; on a GPU machine, everything.
#include <gtest/gtest.h>

#include "core/testing/family_conformance.h"

namespace arena {
namespace {

TEST(HipFamily, Conformance) {
  FamilyConformanceCase c;
  c.family = "hip2hip";
  c.tasks_root = "tasks";
  c.task_yaml = "tasks/hip2hip/elementwise/silu_mul/task.yaml";
  c.broken_candidate = {{"kernel.hip", "extern \"C\" int arena_run( { return 0; }\n"}};
  RunFamilyConformance(c);
}

}  // namespace
}  // namespace arena
