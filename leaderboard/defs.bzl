"""The reproducible leaderboard's targets.

  arena_leaderboard(tasks): for each agent with stored submissions under
      submissions/<agent>/ (the replay agent's layout), a test that
      re-evaluates them and fails if a verdict changed (replay_<agent> on the
      CPU, replay_<agent>_gpu on a GPU, tagged requires-gpu); and `board`,
      the leaderboard rendered from results/*.db.gz (board.txt, board.html).
"""

def _board_impl(ctx):
    txt = ctx.actions.declare_file(ctx.label.name + ".txt")
    html = ctx.actions.declare_file(ctx.label.name + ".html")
    ctx.actions.run(
        executable = ctx.executable._script,
        arguments = [ctx.executable.arena.path, txt.path, html.path, ",".join(ctx.attr.task_ids)] +
                    [f.path for f in ctx.files.results],
        inputs = ctx.files.results + ctx.files.task_files,
        tools = [ctx.attr.arena[DefaultInfo].files_to_run],
        outputs = [txt, html],
        mnemonic = "LeaderboardBoard",
        progress_message = "Rendering the leaderboard %s" % ctx.label,
    )
    return [DefaultInfo(files = depset([txt, html]))]

# The arena is built for the target (as the tests use it), not a second time
# for the host.
_board = rule(
    implementation = _board_impl,
    attrs = {
        "results": attr.label_list(allow_files = [".db.gz"]),
        "task_files": attr.label_list(allow_files = True),
        "task_ids": attr.string_list(),
        "arena": attr.label(executable = True, cfg = "target"),
        "_script": attr.label(default = ":board.sh", executable = True, allow_single_file = True, cfg = "target"),
    },
)

def arena_leaderboard(tasks):
    results = native.glob(["results/*.db.gz"])
    task_files = ["//tasks/%s:task_files" % t for t in tasks]
    agents = {}
    for path in native.glob(["submissions/**"]):
        parts = path.split("/")
        if len(parts) < 6:
            fail("%s: submissions/<agent>/<family>/<suite>/<task>/<file>" % path)
        task = "/".join(parts[2:5])
        if task not in tasks:
            fail("%s: %s is not in tasks.txt" % (path, task))
        agents.setdefault(parts[1], []).append(path)
    for agent, files in agents.items():
        for device, suffix, tags, size in [
            ("cpu", "", [], "large"),
            ("gpu", "_gpu", ["requires-gpu", "exclusive"], "large"),
        ]:
            native.sh_test(
                name = "replay_" + agent + suffix,
                srcs = ["replay.sh"],
                args = [agent, device],
                data = files + results + task_files + ["//tools/arena"],
                size = size,
                tags = tags + ["leaderboard"],
            )
    _board(
        name = "board",
        results = results,
        task_files = task_files,
        task_ids = tasks,
        arena = "//tools/arena",
    )
