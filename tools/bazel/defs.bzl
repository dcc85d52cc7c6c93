"""The project's Bazel macros: one per kind of target.

  arena_cc_library / arena_cc_test / arena_cc_binary: our own C++ code, built
      with the shared warning flags (warnings are errors).
  arena_plugin: a task family or agent adapter; alwayslink is baked in so its
      self-registration is never dropped by the linker.
  arena_gpu_test: a test that needs a GPU; tagged so CPU CI filters it out.
  arena_task: one task folder; `bazel test //tasks/...` runs its baseline
      through compile, correctness and timing on whatever device exists.
"""

ARENA_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wno-unused-parameter",
    "-Wno-missing-field-initializers",
]

def arena_cc_library(name, copts = [], **kwargs):
    native.cc_library(name = name, copts = ARENA_COPTS + copts, **kwargs)

def arena_cc_binary(name, copts = [], **kwargs):
    native.cc_binary(name = name, copts = ARENA_COPTS + copts, **kwargs)

def arena_cc_test(name, copts = [], deps = [], **kwargs):
    native.cc_test(
        name = name,
        copts = ARENA_COPTS + copts,
        linkstatic = 1,
        deps = deps + ["@system//:gtest_main"],
        **kwargs
    )

def arena_plugin(name, copts = [], **kwargs):
    native.cc_library(
        name = name,
        copts = ARENA_COPTS + copts,
        alwayslink = 1,
        **kwargs
    )

def arena_gpu_test(name, tags = [], **kwargs):
    arena_cc_test(name = name, tags = tags + ["requires-gpu", "exclusive"], **kwargs)

# Tests a family adds to each of its tasks: name, script, and what the
# script runs; the script gets the task's id ("<family>/<suite>/<task>").
_FAMILY_TASK_TESTS = {
    "hip2hip": [(
        "reference_threads",
        "//plugins/hip2hip:reference_threads_test.sh",
        ["//plugins/hip2hip:reference_threads", "//plugins/common/hip:include/arena_hip.h"],
    )],
}

def arena_task(name = "task", family = None, tags = [], size = "medium", timeout = None):
    """Declares the task in this folder as tests of its baseline.

    `name` validates task.yaml and runs the shipped baseline through the
    gated pipeline on the CPU (compile, and correctness wherever the CPU can
    check); `name`_gpu does the same on a GPU, timing included, and fails on
    a machine without one (tagged requires-gpu: `--config=gpu` runs it). A
    stage a machine cannot run is reported as skipped with its reason, never
    as passed. A family may add tests of its own to each of its tasks
    (_FAMILY_TASK_TESTS: hip2hip's `reference_threads`).
    """
    if family == None:
        fail("arena_task needs family = \"<family name>\"")
    task_id = native.package_name()
    if not task_id.startswith("tasks/"):
        fail("arena_task must be used under tasks/<family>/<suite>/<task>")
    files = native.glob(["**"], exclude = ["BUILD", "BUILD.bazel"])
    native.filegroup(
        name = "task_files",
        srcs = files,
        visibility = ["//visibility:public"],
    )
    # Two tests: on the CPU (what every machine can check; on a GPU host too,
    # so that its cached pass always means the CPU's checks) and on a GPU
    # (tagged requires-gpu: filtered out where there is none; it fails rather
    # than pass without one). A CPU result is never taken for a GPU one.
    native.sh_test(
        name = name,
        srcs = ["//tools/bazel:task_test.sh"],
        args = [task_id[len("tasks/"):], "cpu"],
        data = files + ["//tools/arena"],
        size = size,
        timeout = timeout,
        tags = tags + ["arena-task", "family-" + family],
    )
    native.sh_test(
        name = name + "_gpu",
        srcs = ["//tools/bazel:task_test.sh"],
        args = [task_id[len("tasks/"):], "gpu"],
        data = files + ["//tools/arena"],
        size = "large",
        tags = tags + ["arena-task", "family-" + family, "requires-gpu", "exclusive"],
    )
    for test_name, script, runs in _FAMILY_TASK_TESTS.get(family, []):
        native.sh_test(
            name = test_name,
            srcs = [script],
            args = [task_id[len("tasks/"):]],
            data = files + runs,
            size = "small",
            tags = tags + ["family-" + family],
        )
