#!/usr/bin/env bash
# The harness's unit tests, with the interpreter the arena uses (torch needed).
exec "${ARENA_PYTHON:-python3}" -B plugins/common/python/harness_test.py
