"""Timed rounds of the Triton judge on the CPU (the interpreter, with
rounds_on_cpu): the times mean nothing there, but what the judge checks in
and after a timed round is the GPU's. The candidates of triton/ whose class
shows only in timed calls are caught here, in CI, and an honest one
passes."""

import os
import shutil
import tempfile
import unittest

import worker
from judge_support import SUBJECTS

HERE = os.path.abspath(os.path.dirname(__file__))
CANDIDATES = os.path.join(HERE, "triton")
GELU = os.path.abspath("tasks/triton2triton/elementwise/gelu")


def time_candidate(file):
    """Compiles the baseline and the candidate (the prelude and `file`),
    checks the candidate on the small configuration, then times both there;
    returns (the check's reply, the timing's)."""
    scratch = tempfile.mkdtemp(prefix="rounds-")
    workspace = os.path.join(scratch, "candidate")
    os.makedirs(workspace)
    with open(os.path.join(CANDIDATES, "_prelude.py")) as f:
        text = f.read() + "\n"
    with open(os.path.join(CANDIDATES, file)) as f:
        text += f.read()
    with open(os.path.join(workspace, "kernel.py"), "w") as f:
        f.write(text)
    cwd = os.getcwd()
    judge, spec, reply = worker.start_judge(GELU, scratch, {"candidate": workspace},
                                            device="cpu", rounds_on_cpu=True)
    try:
        assert reply["status"] == "passed", reply
        config = {"name": "small", "params": dict(spec["configs"]["small"])}
        for subject in SUBJECTS:
            compiled = judge.compile({"subject": subject, "configs": [config]})
            assert compiled["status"] == "passed", compiled
        check = judge.check({"subject": "candidate", "config": config, "seed": 7, "trials": 2})
        return check, judge.time({"config": config})
    finally:
        for runner in judge.runners.values():
            runner.stop()
        os.chdir(cwd)
        shutil.rmtree(scratch, ignore_errors=True)


class TimedRoundsOnTheCpuTest(unittest.TestCase):
    def assert_caught_when_timed(self, file, reason):
        """FILE passes its check and fails its timed rounds with an
        integrity finding whose text matches REASON."""
        check, timed = time_candidate(file)
        self.assertEqual(check["status"], "passed", check)  # right when checked
        self.assertEqual(timed["status"], "failed", timed)
        self.assertIn("integrity", timed["detail"])
        self.assertRegex(timed["detail"], reason)

    def test_an_honest_candidate_is_timed(self):
        check, timed = time_candidate("honest_fast.py")
        self.assertEqual(check["status"], "passed", check)
        self.assertEqual(timed["status"], "passed", timed)
        self.assertGreaterEqual(len(timed["candidate_us"]), 10)
        self.assertEqual(len(timed["baseline_us"]), len(timed["candidate_us"]))
        self.assertIn("eager-rounds-of-", timed["metrics"]["method"])
        # Its calls were witnessed, and every one was done when it returned.
        self.assertIn("+witnessed-calls", timed["metrics"]["method"])
        self.assertGreater(min(timed["metrics"]["witnessed_calls"].values()), 0)
        # Where each round's parts ran, for the report: a CPU read for the
        # judge and both of the runner's processes in every kept round.
        for subject in SUBJECTS:
            cpus = timed["metrics"]["round_parts"][subject]["cpus"]
            self.assertEqual(sum(cpus.values()), len(timed["candidate_us"]), cpus)
            self.assertTrue(all(min(int(c) for c in k.split("/")) >= 0 for k in cpus), cpus)

    def test_skipping_a_few_sets_when_timed_is_caught(self):
        # Its skipped sets' poison, read after the round, or a later set
        # poisoned again after a witness and left so by its own call.
        self.assert_caught_when_timed("skip_some_sets.py",
                                      "differ from the baseline's|a later call's outputs unwritten")

    def test_less_precise_when_timed_is_caught(self):
        # Within twice the tolerance of the baseline's outputs, which the
        # rounds compare every set with; not within the tolerance of the
        # reference, which some rounds, chosen in secret, are held to.
        check, timed = time_candidate("sloppy_when_timed.py")
        self.assertEqual(check["status"], "passed", check)
        self.assertEqual(timed["status"], "failed", timed)
        self.assertIn("wrong when timed", timed["detail"])
        self.assertIn("outside atol=0.002 rtol=0.002", timed["detail"])

    def test_inputs_modified_when_timed_are_caught(self):
        check, timed = time_candidate("inputs_modified_when_timed.py")
        self.assertEqual(check["status"], "passed", check)
        self.assertEqual(timed["status"], "failed", timed)
        self.assertIn("modified", timed["detail"])

    def test_work_between_requests_is_caught(self):
        # A thread that computes a round's outputs with torch once their
        # inputs are written, while no request runs the subject's code: the
        # runners are stopped while the judge writes, and what the thread
        # does once one runs again is a finding (between requests, or
        # library compute inside the call).
        # (A check's inputs are written while its runner runs: the thread
        # may be caught there already.)
        check, timed = time_candidate("work_between_requests.py")
        caught = check if check["status"] != "passed" else timed
        self.assertEqual(caught["status"], "failed", caught)
        self.assertIn("integrity", caught["detail"])
        self.assertRegex(caught["detail"], "work between requests|library compute")

    def test_work_deferred_to_a_later_call_is_caught(self):
        # Each call but a round's last returns with its outputs unwritten
        # and the last computes them all: right when checked (one call at a
        # time) and at every round's end; a witnessed call is seen unwritten.
        self.assert_caught_when_timed("deferred_to_last_call.py", "work deferred to a later call")

    def test_work_done_ahead_of_its_call_is_caught(self):
        # A round's first call computes every set, the later ones nothing:
        # right when checked, at every round's end, and every call done
        # when it returns; the later sets, poisoned again once a witness is
        # taken, keep the poison.
        self.assert_caught_when_timed("ahead_of_its_call.py", "work done ahead of its call")

    def test_a_witness_answered_inside_the_runner_is_refused(self):
        # Its calls defer their work once a witness has reached the judge,
        # and a thread of its own, on the runner's socket (descriptor 0
        # pointed at a socketpair of its), answers the witnesses' pauses
        # itself; the runner's descriptor 0 is pinned.
        check, timed = time_candidate("witness_answered_inside.py")
        self.assertEqual(check["status"], "passed", check)
        self.assertEqual(timed["status"], "failed", timed)
        self.assertIn("Operation not permitted", timed["detail"])


if __name__ == "__main__":
    unittest.main()
