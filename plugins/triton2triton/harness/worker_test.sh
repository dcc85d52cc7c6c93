#!/usr/bin/env bash
# The Triton judge's unit tests, with the interpreter the arena uses (torch needed).
exec "${ARENA_PYTHON:-python3}" -B plugins/triton2triton/harness/worker_test.py
