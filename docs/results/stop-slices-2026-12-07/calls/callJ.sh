#!/usr/bin/env bash
# (graph-rounds-h100-2026-12-06/calls/callJ.sh, which did not run there.)
# Whether CUPTI's subscriber slows graphs once it is let go of, and a
# subscriber let go of around each round's launches or around each launch.
export PYTHONUNBUFFERED=1
timeout 200 python3 tools/gpu/graph_chain_probe.py 30 4096:4096 plain+judge plain+judge+sub \
  plain+judge+unsub plain+judge+subunsub plain+judge+cblaunch+unsubeach plain+judge+cblaunch+unsublaunch \
  > "$OUT/graph_chain_probe5.txt" 2>&1
echo "probe exit $?"; tail -9 "$OUT/graph_chain_probe5.txt"
