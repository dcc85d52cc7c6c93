#!/usr/bin/env bash
# Triton candidates whose class runs near what the runner changed this
# session (processes, native code, files, environment, threads, hooks),
# with honest controls: on the runner as it now is.
export ARENA_PYTHON=python3 ARENA_BWRAP=$PWD/bin/bwrap PYTHONUNBUFFERED=1
f=""
for c in honest_fast honest_thread inductor escaped_process helper_process native_code native_under_a_loaded_name \
         process_module_copy process_via_hook hook_list_disguised interpreter_test_module planted_files \
         reference_via_files lent_memory_file process_memory storage_as_file environment_read import_hook \
         audit_hook signal_handler library_in_thread raw_thread; do
  f="$f${f:+:}Triton/Adversarial.GetsTheVerdictItsHeaderAsksFor/$c"
done
GTEST_FILTER="$f" timeout ${LIMIT:-240} tools/gpu/adversarial.sh "$OUT/adv" >/dev/null 2>&1
echo "adversarial exit $?"
cat "$OUT/adv/table.md"
