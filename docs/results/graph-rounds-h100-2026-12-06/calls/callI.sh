#!/usr/bin/env bash
# Which of CUPTI's callbacks slows a chain of graphs down.
export PYTHONUNBUFFERED=1
timeout 250 python3 tools/gpu/graph_chain_probe.py 30 4096:4096 plain+judge plain+judge+sub plain+judge+cbgraph \
  plain+judge+cblaunch plain+judge+cbmem plain+judge+cupti > "$OUT/graph_chain_probe4.txt" 2>&1
echo "probe exit $?"; tail -9 "$OUT/graph_chain_probe4.txt"
