"""The triton2triton judge's timing rounds: a part of worker.Judge (its base
class), which supplies the task, the runners, the inputs and the checks
these methods use (docs/methodology.md, Timing)."""

import collections
import math
import os
import secrets
import time

import torch

from arena_harness import bitwise_equal, compare, make_reply, median
from arena_judge import SubjectFailure, last_cpu
from judge_support import (FIRST_BLOCK_ROUNDS, LONGEST_ROUND_US, NEXT_BLOCK_ROUNDS, ROUND_US, SUBJECTS,
                           IntegrityFailure, Phases, compare_sets, each_together, gather, poison_value, poisoned,
                           resized_sets, runner_costs, sample_index, settled, slot_bytes)


CPU_ROUND_SETS = 6  # sets of a round on the CPU (tests only)
# Timed rounds per round held to the reference (its chosen set), and per
# witnessed round of a captured graph, in each block of rounds (rounded up).
ROUNDS_PER_HELD = 5
# Calls timed eagerly are witnessed (arena_runner's call_sets, which draws
# with the same chance, its own): each with this chance over the round's
# sets, so about one round in five has one.
WITNESSES_PER_ROUND = 0.25
# Rounds added, at most, until each subject's runner has paused for a
# witness (an honest one has, after the rounds, but for one time in 2000).
WITNESS_ROUNDS_MORE = 40
# (Rounds of a captured graph whose replay is witnessed between its two
# parts, at secret places among the timed ones, are not timed: _plan_block.)
# Places of each output read in every set of a witnessed replay's first part.
SPLIT_WITNESS_ELEMENTS = 4096
# Places of each output poisoned again in every later set once a witness is
# taken: the later calls must write them (work done ahead is seen there).
AHEAD_ELEMENTS = 64


class _HostEvent:
    """torch.cuda.Event's part the rounds use, on the host's clock."""

    def __init__(self):
        self.at = 0.0

    def record(self):
        self.at = time.perf_counter()

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return (end.at - self.at) * 1e3


class TimingRounds:
    """Times both subjects from the judge's clock, in rounds (Judge.time)."""

    def time(self, req):
        if self.device != "cuda" and not self.rounds_on_cpu:
            return make_reply("skipped", "skipped: no GPU")
        # On a GPU the judge polls for its runners' words while it times
        # them, past the longest round, before it sleeps: its own wake-up
        # stays out of every round (the runners poll within one too).
        for r in self.runners.values():
            r.spin_s = 2 * LONGEST_ROUND_US / 1e6 if self.device == "cuda" else 0.0
        try:
            return self._guarded(lambda: self._time(req["config"]))
        finally:
            for r in self.runners.values():
                r.spin_s = 0.0

    def _time(self, config):
        """Times both subjects from the judge's clock.

        A round lends a subject N sets of fresh inputs (drawn here from a
        secret seed; both subjects get the same sets) and poisoned outputs,
        asks its runner to run them all (one CUDA graph replay, or eager
        calls) and waits for "done"; the round ends when the judge has copied
        the outputs of one set, chosen in secret, out of its own memory. That
        copy is verified afterwards at 64 Ki places drawn in secret, against
        the other subject's on the same inputs (and in a fifth of the
        rounds, chosen in secret, whole, against the reference at the checks'
        tolerance), and the set's inputs must be unchanged; every other
        set's outputs are compared too, after the
        round, at fewer places: a runner that answers before its work is
        done, skips or caches calls, or behaves differently when timed is
        caught, and all its work, on any stream or host thread, is inside
        the round. Every runner is stopped (SIGSTOP) before a round's inputs
        are written, and each stays stopped until its own round: no subject
        sees them before its clock starts. The GPU is waited for until it is
        idle before the inputs are written and before each subject's round
        (work a subject left running, to see the inputs or to slow whoever
        is timed next, is a finding after 2 s); then only the timed runner
        is resumed, and woken by an empty round trip outside the round.
        """
        phases = Phases()
        params = config["params"]
        timing = self.task["timing"]
        inplace = set(self.task.get("inplace", []))
        rng = secrets.SystemRandom()
        runners = {s: self._runner(s) for s in SUBJECTS}
        outputs = self._output_specs(params)
        probe = self.draw_inputs(params, rng.getrandbits(48))
        layouts = {k: (v.dtype, list(v.shape)) for k, v in probe.items()}
        layouts.update(outputs)
        names = self._produced(outputs)
        per_set = sum(slot_bytes(d, s) for d, s in layouts.values())

        # A round trip with no work, through the baseline's runner: a
        # candidate cannot inflate what is subtracted from its own time.
        overhead = median([self._round_trip(runners["baseline"], {"op": "empty"})
                           for _ in range(9)])
        # What one call costs each subject: one eager call's round trip,
        # less the empty one's. (That holds the request's own cost too, the
        # runner's synchronize and its launch observer's report, 0.5-1.4
        # ms on an H100, with as much noise: one call and five on the same
        # set, differenced, gave no better estimate there; the round of
        # the first size is measured below, as it will be timed.)
        single = {}
        for s, r in runners.items():
            ids, views, _ = self._lend(r, layouts, 1)
            try:
                for k, v in probe.items():
                    views[0][k].copy_(v)
                times = []
                for _ in range(3):
                    self._poison({k: views[0][k] for k in outputs})
                    self._sync()
                    times.append(self._round_trip(r, {"op": "call", "sets": ids, "params": params}))
                single[s] = max(median(times) - overhead, 1.0)
            finally:
                r.unbind(ids, self.timeout_s)
        phases.lap("probe_s")
        estimate = min(single.values())
        budget = min(8 << 30, self.free_bytes // 6)  # (free before any subject's code ran: Judge.init)
        cap = int(max(1, min(256 if self.make_inputs is not None else 4096,
                             budget // max(per_set, 1))))
        # Enough sets to leave the L2 cold and to fill a round of about 5 ms.
        count = max(math.ceil(ROUND_US / estimate), math.ceil(2 * self.l2_bytes / max(per_set, 1)))
        count = int(max(1, min(count, cap)))
        if self.rounds_on_cpu:
            count = CPU_ROUND_SETS  # the interpreter's calls are slow; several sets still

        lent, draws = {}, None
        capture_costs = {}  # subject: where its runner's last capture went (runner_costs)
        # A word per runner that a captured round's first part sets as it
        # ends (arena_runner's capture): the judge reads it there.
        markers = {}
        try:
            for s, r in runners.items():
                markers[s] = self._lend(r, {"marker": (torch.int32, [1])}, 1)
            mode = "eager"
            for attempt in range(2):
                # Both subjects' memory made together: each lies in device
                # memory as the other's does (BufferPool.allocate_together).
                lent.update(self._lend_together(runners, layouts, count))
                phases.lap("lend_s")
                # Graph replay where both subjects can be captured (launch
                # overhead out of the round), eager calls for both otherwise.
                mode = "graph"
                for s in runners:
                    for name, v in probe.items():
                        lent[s][2][name].copy_(v.reshape(1, -1).expand(count, -1))
                self._sync()
                # Both runners capture at once (each its own process; the
                # capture of thousands of calls takes a second or more).
                replies = each_together(runners, lambda s, r: r.request(
                    {"op": "capture", "sets": lent[s][0], "params": params, "marker": markers[s][0][0]},
                    self.timeout_s))
                for s, r in runners.items():
                    capture_costs[s] = runner_costs(replies[s])
                    self._raise_findings(r)
                    if not replies[s]["ok"]:
                        mode = "eager"
                phases.lap("capture_s")
                # A graph replays what was captured: work a subject does
                # where the capture does not reach (a kernel launched from
                # a thread of its own, on that thread's stream) ran once, as
                # the capture went, and is not replayed. Each subject's
                # replay is held to what its eager calls on the same inputs
                # gave (the first sets, called before the capture), within
                # twice the tolerance (each within it of the reference):
                # where the replay left outputs unwritten that the calls
                # wrote, both subjects are timed by calls, whose outputs the
                # rounds hold to each other and to the reference alike;
                # where it wrote other values, the subject computes
                # otherwise when captured, and that is a finding.
                for s, r in runners.items():
                    if mode != "graph":
                        break
                    slabs = lent[s][2]
                    self._sync()
                    eager = {name: slabs[name][0].clone() for name in names}
                    for name, v in probe.items():  # (in-place outputs are inputs too)
                        slabs[name].copy_(v.reshape(1, -1).expand(count, -1))
                    self._poison({name: slabs[name] for name in outputs})
                    self._sync()
                    self._accept(r, r.request({"op": "replay"}, self.timeout_s))
                    for name in names:
                        atol, rtol = self._tolerance(slabs[name])
                        ok, detail, _ = compare(name, slabs[name][0], eager[name], (2 * atol, 2 * rtol))
                        if ok:
                            continue
                        if bool((poisoned(slabs[name][0]) & ~poisoned(eager[name])).any()):
                            mode = "eager"
                        else:
                            raise IntegrityFailure([
                                f"{s}: wrong when timed: the graph captured of its calls gives other "
                                f"outputs than the calls on the same inputs: {detail}"])
                phases.lap("hold_s")
                # A round of each subject: resized so that the faster one's
                # lasts about 5 ms (the estimate came from one eager call),
                # but the slower one's no more than 50 ms (a subject 1000
                # times slower must not run past the stage's limit).
                request = {"op": "replay"} if mode == "graph" else None
                work = {s: median([self._round_trip(
                    r, request or {"op": "call", "sets": lent[s][0], "params": params})
                    - overhead for _ in range(2)]) for s, r in runners.items()}
                resized, far_off = resized_sets(count, min(work.values()), max(work.values()), cap)
                phases.lap("size_s")
                if attempt == 1 or not far_off or self.rounds_on_cpu:
                    break
                count = resized
                for s in list(lent):
                    runners[s].unbind(lent.pop(s)[0], self.timeout_s)
            # Timed rounds: a first block, then more blocks until the
            # rounds' median ratio is settled (judge_support.settled) or the
            # most are timed. Each block has rounds of its own, drawn in
            # secret among its rounds as it is planned: a fifth of its
            # timed ones, rounded up, whose chosen set's outputs are also
            # held to the reference, at the checks' tolerance (a subject
            # less precise when timed, yet within twice the tolerance of
            # the baseline's outputs, does not get through every block;
            # every round keeps its chosen set's inputs alike, and the held
            # ones are compared after the last round: no round's timing
            # tells a subject that it, or an earlier one, was held), and as
            # many more witnessed rounds of a captured graph (below, not
            # timed). Whether a block follows depends on the rounds'
            # timing alone; every block, the first or a later one, is
            # witnessed and held alike.
            most = max(FIRST_BLOCK_ROUNDS, min(int(timing["repetitions"]), 30))
            # Eager calls are witnessed: the runner pauses after a call drawn
            # once it has returned, and the judge copies that set's outputs
            # then; after the round they must be what the set holds at its
            # end. A subject that leaves a call's work to a later call (to
            # batch a round's calls into fewer launches, which its callers'
            # calls, each waited for, never are) is caught in the rounds
            # that witness a call it left. A captured graph is one graph per
            # call, chained, and every replay runs two chains: the calls up
            # to a secret one, then, once the runner has told the judge and
            # the judge has said "go", the rest (arena_runner's replay). In
            # rounds of each block at secret places (_plan_block), not timed,
            # the judge waits for the first part to end (it marks its end in
            # the judge's memory) and copies what its calls wrote before it
            # says "go"; in the others it says "go" at once. Until then a
            # witnessed replay and a timed one are the same: the same
            # chains, the same requests.
            # (A round of one call has no later call to leave work to: the
            # runner witnesses none there.)
            chance = WITNESSES_PER_ROUND / count if mode == "eager" and count > 1 else 0.0
            graph_witnessed = mode == "graph" and count > 1
            held, untimed = set(), set()
            rounds = self._plan_block(1, FIRST_BLOCK_ROUNDS, graph_witnessed, held, untimed, rng)
            planned, last_block = FIRST_BLOCK_ROUNDS, False
            witnessed = {s: 0 for s in SUBJECTS}
            for r in runners.values():
                r.take_stop_tally()  # this timing's stops alone
            kept = []  # (round, its chosen set's inputs, the candidate's outputs)
            # What evicting the L2 takes on an idle GPU, every runner stopped
            # (never more than it took before any subject ran: IdleGpu).
            for any_runner in runners.values():
                any_runner.freeze(True)
            try:
                self.idle_gpu.measure()
            finally:
                for any_runner in runners.values():
                    any_runner.freeze(False)
            phases.lap("setup_s")
            draws = self.round_draws(params, count)
            samples = {s: [] for s in SUBJECTS}
            # Per subject and kept round, what came between its inputs being
            # written and its clock starting: the wait for an idle GPU (every
            # runner stopped) and the wake. Neither is on the clock; both are
            # reported, so that runs tell what an honest subject's take.
            before_clock = {s: {"quiet_us": [], "wake_us": []} for s in SUBJECTS}
            # Per subject and kept round, the parts of its round (the
            # judge's clock: to the split heard, from "go" to the reply; the
            # runner's, as it says: its launches, its wait for "go") and the
            # CPUs the judge, the runner's sandbox and its last process last
            # ran on: for the report alone, where two subjects' rounds differ
            # by more than their GPU work.
            round_parts = {s: {"to_split_us": [], "after_go_us": [], "cpu": []} for s in SUBJECTS}
            worst = {"max_abs_err": 0.0, "max_rel_err": 0.0}
            i = -1
            while True:  # round 0 warms up and is not kept
                i += 1
                if i > rounds and not last_block:
                    if planned < most and not settled(samples["baseline"], samples["candidate"]):
                        more = min(NEXT_BLOCK_ROUNDS, most - planned)
                        rounds = self._plan_block(i, more, graph_witnessed, held, untimed, rng)
                        planned += more
                    else:
                        last_block = True
                if i > rounds and (chance == 0.0 or min(witnessed.values()) > 0 or
                                   i > rounds + WITNESS_ROUNDS_MORE):
                    break
                # Both subjects get the same fresh sets: drawn into the
                # first one's memory and copied to the other's, outputs
                # poisoned, while every runner is stopped and the GPU is
                # idle; each runner stays stopped until its own round. No
                # subject sees a round's inputs before its clock starts (a
                # thread that watched its lent memory would otherwise work
                # on them unclocked; what it launches between requests is a
                # finding too, arena_runner.py).
                order = SUBJECTS if i % 2 == 0 else SUBJECTS[::-1]
                secret = rng.randrange(count)
                snapshots = {}
                witnesses = {s: [] for s in SUBJECTS}  # what _take_witness gives
                try:
                    for any_runner in runners.values():
                        any_runner.freeze(True)
                    busy = self.idle_gpu.wait()
                    if busy:
                        raise IntegrityFailure([
                            "a subject left work running on the GPU for over 2 s after its "
                            f"runner was stopped, before a round's inputs were written ({busy})"])
                    phases.lap("quiet_s")
                    first = lent[order[0]][2]
                    draws.draw(first, rng.getrandbits(48))
                    for s in order:
                        slabs = lent[s][2]
                        if s != order[0]:
                            for name in probe:
                                slabs[name].copy_(first[name])
                        self._poison({name: slabs[name] for name in outputs})
                    # Where the chosen set's inputs are read after each call.
                    watched = {name: sample_index(lent[order[0]][1][secret][name].numel(), rng,
                                                  self.device)
                               for name in probe if name not in inplace}
                    before = {name: gather(lent[order[0]][1][secret][name], idx)
                              for name, idx in watched.items()}
                    originals = {name: lent[order[0]][1][secret][name].clone() for name in probe}
                    for s in order:
                        markers[s][1][0]["marker"].zero_()
                    self._sync()
                    phases.lap("fill_s")
                    for s in order:
                        r, (ids, views, slabs) = runners[s], lent[s]
                        request = {"op": "replay", "split": rng.getrandbits(30)} if mode == "graph" else \
                            {"op": "call", "sets": ids, "params": params}
                        if chance > 0.0:
                            r.on_pause = self._witness(slabs, names, outputs, witnesses[s], rng)
                        if i in untimed:
                            r.on_split = self._split_witness(markers[s][1][0]["marker"], slabs, names, outputs,
                                                             witnesses[s], rng)
                        quiet_from = time.perf_counter()
                        busy = self.idle_gpu.wait()
                        if busy:
                            raise IntegrityFailure([
                                "a subject left work running on the GPU for over 2 s after its "
                                f"runner was stopped, before {s} was timed ({busy})"])
                        quiet_us = (time.perf_counter() - quiet_from) * 1e6
                        # Stopped while the inputs were written, and the
                        # other while this one is timed: stopped indeed.
                        ran = r.ran_while_stopped()
                        if ran:
                            raise IntegrityFailure([f"{ran} (round {i}, as its inputs were written)"])
                        for o in order:
                            if o != s:
                                runners[o].settle_stop()
                        r.freeze(False)
                        phases.lap("quiet_s")
                        # Woken outside the round: it was stopped.
                        wake_us = self._round_trip(r, {"op": "empty"})
                        if i > 0:
                            before_clock[s]["quiet_us"].append(quiet_us)
                            before_clock[s]["wake_us"].append(wake_us)
                        phases.lap("wake_s")
                        t0 = time.perf_counter()
                        reply = r.request(request, self.timeout_s)
                        replied = time.perf_counter()
                        snap_start, snap_end = self._event(), self._event()
                        snap_start.record()
                        snapshots[s] = {n: views[secret][n].clone() for n in names}
                        snap_end.record()
                        snap_end.synchronize()
                        elapsed = (time.perf_counter() - t0) * 1e6
                        r.on_pause = r.on_split = None
                        r.freeze(True, settle=False)  # the next round's freeze waits
                        phases.lap("round_s")
                        self._accept(r, reply)
                        for name, idx in watched.items():
                            if not bitwise_equal(gather(views[secret][name], idx), before[name]):
                                raise IntegrityFailure([f"{s}: input '{name}' was modified in a "
                                                        f"timed call (round {i})"])
                        work = elapsed - snap_start.elapsed_time(snap_end) * 1e3 - overhead
                        if i > 0 and i not in untimed:
                            samples[s].append(max(work, 0.0) / count)
                            parts = round_parts[s]
                            parts["cpu"].append((last_cpu(os.getpid()), last_cpu(r.proc.pid if r.proc else 0),
                                                 last_cpu(r.frozen_pids[-1] if r.frozen_pids else 0)))
                            if r.split_seen_at is not None and r.go_sent_at is not None:
                                parts["to_split_us"].append((r.split_seen_at - t0) * 1e6)
                                parts["after_go_us"].append((replied - r.go_sent_at) * 1e6)
                            for name, value in runner_costs(reply).items():
                                parts.setdefault(name[:-2] + "_us", []).append(value * 1e6)
                        if i in untimed and len(witnesses[s]) != 1:
                            raise IntegrityFailure([f"tampering: {s}'s runner replayed its captured calls "
                                                    "without telling where the first part ended"])
                        for o in order:
                            ran = runners[o].ran_while_stopped() if o != s else ""
                            if ran:
                                raise IntegrityFailure([f"{ran} (round {i}, while {s} was timed)"])
                finally:
                    for any_runner in runners.values():
                        any_runner.freeze(False)
                # The witnesses first: a call's work was done when it
                # returned, and no later call's before it was called.
                for s in SUBJECTS:
                    witnessed[s] += len(witnesses[s])
                    other = [o for o in SUBJECTS if o != s][0]
                    for call, copies, ahead, early in witnesses[s]:
                        if copies is None:
                            raise IntegrityFailure([f"{s}: the first part of a witnessed replay (its calls up "
                                                    f"to call {call + 1} of {count}, round {i}) had not ended "
                                                    "2 s after its runner said it was launched"])
                        if not 0 <= call < count or not copies:
                            raise IntegrityFailure([f"tampering: {s}'s runner stopped for a witness of call "
                                                    f"{call + 1}, in a round of {count} (round {i}), where "
                                                    "there is none"])
                        for name in names:
                            if not bitwise_equal(copies[name][1], copies[name][0](lent[s][2][name])):
                                raise IntegrityFailure([
                                    f"{s}: work deferred to a later call: the calls up to call {call + 1} of "
                                    f"{count} in round {i} had returned with outputs not all written "
                                    f"('{name}' was witnessed then, and differs from what the round's "
                                    "end holds)"])
                        if early is not None:
                            raise IntegrityFailure([
                                f"{s}: work done ahead of its call: once the calls up to call {call + 1} of "
                                f"{count} in round {i} had returned, '{early[1]}' of call {early[0] + 1} was "
                                "already written, before that call was made"])
                        for name, cols in ahead.items():
                            slab = lent[s][2][name]
                            later = poisoned(slab[call + 1:, cols]) & ~poisoned(lent[other][2][name][call + 1:, cols])
                            if bool(later.any()):
                                poison = "NaN" if slab.is_floating_point() else str(poison_value(slab.dtype))
                                raise IntegrityFailure([
                                    f"{s}: a later call's outputs unwritten: once the calls up to call "
                                    f"{call + 1} of {count} in round {i} had returned, '{name}' of the later "
                                    f"sets was poisoned again ({poison}) at places drawn in secret, and their "
                                    "own calls left it there (their work done ahead of them, or skipped)"])
                    del witnesses[s][:]
                # The chosen set's outputs, at secret places: each subject
                # is within the tolerance of the reference when checked, so
                # within twice of each other on the same inputs when timed.
                # Then every other set of the round, at fewer places: a
                # subject that skips the work of a few sets, betting that the
                # chosen one is not among them, loses that bet every round.
                # That looks for poison or garbage, not precision: twice the
                # chosen set's bound, so that the many more elements read
                # cannot turn an honest subject's rare outlier into a finding.
                others = [k for k in range(count) if k != secret]
                for name in names:
                    got = snapshots["candidate"][name]
                    idx = sample_index(got.numel(), rng, self.device)
                    atol, rtol = self._tolerance(got)
                    checks = (
                        ("a timed call's outputs", lambda: compare(
                            name, gather(got, idx), gather(snapshots["baseline"][name], idx),
                            (2 * atol, 2 * rtol))),
                        ("a timed round's other sets", lambda: compare_sets(
                            name, lent["candidate"][2][name], lent["baseline"][2][name], others,
                            rng, (4 * atol, 4 * rtol))))
                    for what, check in checks:
                        ok, detail, errs = check()
                        worst["max_abs_err"] = max(worst["max_abs_err"], errs[0])
                        worst["max_rel_err"] = max(worst["max_rel_err"], errs[1])
                        if not ok:
                            # Right when checked, wrong when timed: not an accident.
                            raise IntegrityFailure([
                                f"candidate: {what} differ from the baseline's on the same "
                                f"inputs (round {i}): {detail}"])
                if i in held:
                    kept.append((i, originals, snapshots["candidate"]))
                del originals
                phases.lap("verify_s")
            for s, seen in witnessed.items():
                if chance > 0.0 and seen == 0:
                    raise IntegrityFailure([
                        f"tampering: {s}'s runner never paused for a witness in {i} rounds of {count} calls "
                        f"(each call witnessed with a chance of {chance:.3g}: its draws or its pauses were "
                        "kept from the judge)"])
            for i, originals, got in kept:
                expected = self._expected(originals, params)
                detail = self._held_to_reference(names, got, expected, worst)
                if detail is not None:
                    # As a check would say: wrong on inputs of its own.
                    raise SubjectFailure(f"candidate: wrong when timed: the outputs of a "
                                         f"timed call (round {i}): {detail}")
                del expected
            phases.lap("verify_s")
        finally:
            if draws is not None:
                draws.close()
            for s, (ids, _, _) in list(lent.items()) + list(markers.items()):
                runners[s].unbind(ids, self.timeout_s)
        for r in runners.values():
            self._raise_findings(r)  # what the last unbinds saw is this stage's
        method = (f"judge-clock+{'cuda-graph' if mode == 'graph' else 'eager'}-rounds-of-{count}"
                  "-fresh-input-sets+secret-verified-set+interleaved" +
                  ("+witnessed-calls" if chance or untimed else ""))
        metrics = {"method": method, "sets_per_round": count, "inputs_drawn_by": draws.how,
                   "rounds": len(samples["baseline"]),
                   "settled": settled(samples["baseline"], samples["candidate"]),
                   "round_trip_us": overhead, "capture_costs": capture_costs,
                   "single_call_us": single, "verified": worst, "phases": phases.seconds,
                   "witnessed_calls": witnessed if chance or untimed else None,
                   "before_clock": {s: {k: {"median": median(v), "max": max(v)} for k, v in d.items() if v}
                                    for s, d in before_clock.items()},
                   "round_parts": {s: dict({k: round(median(v), 1) for k, v in d.items() if v and k != "cpu"},
                                           cpus=dict(collections.Counter(
                                               "%d/%d/%d" % c for c in d["cpu"]).most_common(8)))
                                   for s, d in round_parts.items()},
                   "stops": {s: runners[s].take_stop_tally() for s in SUBJECTS}}
        return make_reply("passed", method, metrics=metrics,
                          extra={"baseline_us": samples["baseline"],
                                 "candidate_us": samples["candidate"],
                                 "paired": True})  # sample i of each: round i

    @staticmethod
    def _plan_block(start, timed, graph_witnessed, held, untimed, rng):
        """A block of rounds from START: TIMED timed ones and, where a
        captured graph is witnessed (GRAPH_WITNESSED), a fifth as many more
        (rounded up), untimed, at places drawn in secret among them (added
        to UNTIMED); and as many of its rounds, drawn in secret, held to
        the reference (added to HELD). Returns the block's last round."""
        extra = math.ceil(timed / ROUNDS_PER_HELD)
        witnesses = extra if graph_witnessed else 0
        block = range(start, start + timed + witnesses)
        untimed.update(rng.sample(block, witnesses))
        held.update(rng.sample(block, min(extra, len(block))))
        return block[-1]

    @staticmethod
    def _secret_places(width, most, rng, device):
        """At most MOST of WIDTH places, drawn in secret, in order (None: all)."""
        if width <= most:
            return None
        return torch.tensor(sorted(rng.sample(range(width), most)), device=device)

    def _poison_ahead(self, slabs, outputs, call, rng):
        """Once the calls up to CALL have returned: AHEAD_ELEMENTS places
        drawn in secret of each output (not an in-place input) of every
        later set read, and poisoned again, in the judge's own time. Their
        calls have not run: the places still hold the poison written
        before the round, or a later call's work was done ahead of it (to
        batch it). And their own calls must write them: a subject that
        skips a later call's work, or did it ahead and does not do it again,
        leaves the poison. Returns ({name: the places}, the first later
        call found written ahead and its output, or None)."""
        ahead, early = {}, None
        for n in outputs:
            slab = slabs[n]
            if call + 1 >= slab.shape[0] or slab.shape[1] == 0:
                continue
            cols = self._secret_places(slab.shape[1], AHEAD_ELEMENTS, rng, slab.device)
            cols = slice(None) if cols is None else cols
            if early is None:
                try:
                    written = ~poisoned(slab[call + 1:, cols])
                except (RuntimeError, NotImplementedError):
                    # (A dtype without indexed reads, isnan or == on this
                    # device: every place of the later sets, widened.)
                    part = slab[call + 1:]
                    written = ~(torch.isnan(part.float()) if slab.is_floating_point() else
                                part.to(torch.int64) == int(poison_value(slab.dtype)))
                rows = written.reshape(written.shape[0], -1).any(dim=1).nonzero()
                if rows.numel() > 0:
                    early = (call + 1 + int(rows[0, 0]), n)
            try:
                slab[call + 1:, cols] = poison_value(slab.dtype)
            except (RuntimeError, NotImplementedError):
                # (A dtype whose indexed writes torch does not have on this
                # device: every place of the later sets, with a fill.)
                slab[call + 1:].fill_(poison_value(slab.dtype))
                cols = slice(None)
            ahead[n] = cols
        return ahead, early

    def _take_witness(self, slabs, names, outputs, call, rows, most, into, rng):
        """A witness of the outputs of the sets ROWS (a slice of the round's)
        as call CALL has returned: at MOST places drawn in secret of each
        (every set, the same places), copied into the judge's own memory,
        where no later call of the subject's reaches them; then the later
        sets read and poisoned again (_poison_ahead). INTO gets (CALL,
        {name: (how to read the slab there again, the copy)}, {name: the
        places poisoned again}, a later call found written ahead or None)."""
        copies = {}
        for n in names:
            def read(slab, _cols=self._secret_places(slabs[n].shape[1], most, rng, slabs[n].device), _rows=rows):
                part = slab[_rows]
                return part.clone() if _cols is None else part[:, _cols]
            copies[n] = (read, read(slabs[n]))
        into.append((call, copies) + self._poison_ahead(slabs, outputs, call, rng))
        self._sync()

    def _witness(self, slabs, names, outputs, into, rng):
        """What the judge does as a runner pauses after call I of a round of
        eager calls (arena_judge's on_pause): a witness of that set's
        outputs, all of them (_take_witness)."""
        def take(call, _slabs=slabs, _names=names, _outputs=outputs, _into=into, _rng=rng):
            if not 0 <= call < next(iter(_slabs.values())).shape[0]:
                _into.append((call, {}, {}, None))
                return
            self._take_witness(_slabs, _names, _outputs, call, slice(call, call + 1), math.inf, _into, _rng)
        return take

    def _split_witness(self, marker, slabs, names, outputs, into, rng):
        """What the judge does as a runner's replay reaches the end of its
        first part, call I (arena_judge's on_split), in a witnessed round:
        it waits for the part to end on the GPU (MARKER set), then takes a
        witness of the outputs of calls 0..I at SPLIT_WITNESS_ELEMENTS
        places of each (_take_witness)."""
        def take(call, _marker=marker, _slabs=slabs, _names=names, _outputs=outputs, _into=into, _rng=rng):
            if not 0 <= call < next(iter(_slabs.values())).shape[0] - 1:
                _into.append((call, {}, {}, None))
                return
            deadline = time.monotonic() + 2.0
            while int(_marker.item()) != 1:
                if time.monotonic() > deadline:
                    _into.append((call, None, {}, None))
                    return
            self._take_witness(_slabs, _names, _outputs, call, slice(0, call + 1), SPLIT_WITNESS_ELEMENTS,
                               _into, _rng)
        return take

    def _timed_eviction(self):
        """Microseconds from submitting an L2 eviction to its end, on the
        host's clock: while another context's kernels hold the GPU, the
        judge's work waits for its time slice."""
        t0 = time.perf_counter()
        self.flush.add_(1.0)
        self._sync()
        return (time.perf_counter() - t0) * 1e6

    def _sync(self):
        if self.device == "cuda":
            torch.cuda.synchronize()

    def _event(self):
        """A timing event: CUDA's, or the host's clock for rounds on the CPU."""
        return torch.cuda.Event(enable_timing=True) if self.device == "cuda" else _HostEvent()

    def _round_trip(self, runner, request):
        """Microseconds from asking the runner to its accepted answer."""
        t0 = time.perf_counter()
        reply = runner.request(request, self.timeout_s)
        elapsed = (time.perf_counter() - t0) * 1e6
        self._accept(runner, reply)
        return elapsed
