"""Unit tests of the Python harness's pieces that need no GPU: the
expression evaluator never runs task text as code; a runner client blames
the subject for a process that dies, hangs or breaks the protocol."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arena_harness import TaskError, _evaluate  # noqa: E402
from arena_judge import RunnerClient, SubjectFailure  # noqa: E402


class EvaluateTest(unittest.TestCase):
    def test_the_cores_grammar(self):
        self.assertEqual(_evaluate("ceil_div(n, 128) * 4", {"n": 1000}), 32)
        self.assertEqual(_evaluate("2 ** 3 + -n // 3", {"n": 10}), 4)
        self.assertEqual(_evaluate("max(n, 7) % 5", {"n": 3}), 2)
        self.assertEqual(_evaluate(5, {}), 5)

    def test_task_text_is_never_code(self):
        for text in ['__import__("os").system("touch /tmp/pwned")', "(1).__class__",
                     "n if n else 2", 'open("/etc/passwd")', "[n]", "lambda: 1", "n.real",
                     "9 ** 999999", "missing + 1", "True", "1 / 0"]:
            with self.assertRaises(TaskError, msg=text):
                _evaluate(text, {"n": 3})


class RunnerClientTest(unittest.TestCase):
    def client(self, script):
        log = tempfile.NamedTemporaryFile(delete=False).name
        r = RunnerClient("candidate", [sys.executable, "-c", script], log, pool=None)
        r.start()
        return r

    def test_a_reply_is_one_json_line(self):
        r = self.client("import os, socket\ns = socket.socket(fileno=0)\n"
                        "s.recv(100)\ns.sendall(b'{\"ok\": true}\\n')\ns.recv(100)\n")
        self.assertTrue(r.request({"op": "empty"}, 10)["ok"])
        r.stop()

    def test_garbage_breaks_the_protocol(self):
        r = self.client("import socket\ns = socket.socket(fileno=0)\ns.recv(100)\n"
                        "s.sendall(b'\\xff\\xfe\\n')\ns.recv(100)\n")
        with self.assertRaises(SubjectFailure) as e:
            r.request({"op": "empty"}, 10)
        self.assertIn("not the protocol", str(e.exception))
        self.assertTrue(e.exception.integrity)

    def test_an_exit_is_reported_as_it_was(self):
        r = self.client("import os, socket\ns = socket.socket(fileno=0)\ns.recv(100)\nos._exit(3)\n")
        with self.assertRaises(SubjectFailure) as e:
            r.request({"op": "empty"}, 10)
        self.assertIn("exited with status 3", str(e.exception))

    def test_a_hang_is_cut_at_the_limit(self):
        r = self.client("import time\ntime.sleep(60)\n")
        with self.assertRaises(SubjectFailure) as e:
            r.request({"op": "empty"}, 1)
        self.assertIn("timed out after 1.0 s", str(e.exception))
        self.assertFalse(r.alive())


if __name__ == "__main__":
    unittest.main()
