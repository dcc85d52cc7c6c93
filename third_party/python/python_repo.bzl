"""The arena's Python as Bazel's Python toolchain (offline, Bazel 4).

py_binary and py_test run with the interpreter that has torch and triton:
the one ARENA_PYTHON names (tools/setup.sh passes it with --repo_env), else
python3 from PATH.

    # WORKSPACE
    load("//third_party/python:python_repo.bzl", "arena_python_repository")
    arena_python_repository(name = "arena_python")
    register_toolchains("@arena_python//:toolchain")
"""

_BUILD = """\
load("@bazel_tools//tools/python:toolchain.bzl", "py_runtime_pair")

py_runtime(
    name = "py3_runtime",
    interpreter_path = "{interpreter}",
    python_version = "PY3",
    stub_shebang = "#!{interpreter}",
)

py_runtime_pair(
    name = "runtime_pair",
    py3_runtime = ":py3_runtime",
)

toolchain(
    name = "toolchain",
    toolchain = ":runtime_pair",
    toolchain_type = "@bazel_tools//tools/python:toolchain_type",
)
"""

def _interpreter(repository_ctx):
    """The interpreter's absolute path, or fail() saying what to do."""
    wanted = repository_ctx.os.environ.get("ARENA_PYTHON", "")
    if "/" in wanted:
        if not wanted.startswith("/"):
            fail("ARENA_PYTHON must be an absolute path, not {}".format(wanted))
        path = repository_ctx.path(wanted)
        if not path.exists:
            fail("ARENA_PYTHON is {}, which does not exist: run tools/setup.sh".format(wanted))
        return str(path)
    found = repository_ctx.which(wanted or "python3")
    if found == None:
        why = "ARENA_PYTHON is unset and python3 is not on PATH"
        if wanted:
            why = "ARENA_PYTHON is {}, which is not on PATH".format(wanted)
        fail("no Python interpreter: {}; run tools/setup.sh (it writes ".format(why) +
             "--repo_env=ARENA_PYTHON=... to .bazelrc.user)")
    return str(found)

def _arena_python_repository_impl(repository_ctx):
    repository_ctx.file("WORKSPACE", "workspace(name = \"{}\")\n".format(repository_ctx.name))
    repository_ctx.file("BUILD.bazel", _BUILD.format(interpreter = _interpreter(repository_ctx)))

arena_python_repository = repository_rule(
    implementation = _arena_python_repository_impl,
    environ = ["ARENA_PYTHON"],
    doc = "A Python toolchain for the interpreter ARENA_PYTHON names (else python3 on PATH).",
)
