#!/usr/bin/env bash
# What of the judge's way of timing a graph round moves calls of 1-2 us:
# the judge's round trip at the split, CUPTI's callbacks, idle gaps
# between rounds, stopped runners.
export PYTHONUNBUFFERED=1
timeout 280 python3 tools/gpu/graph_chain_probe.py 30 4096:4096 plain plain+judge plain+judge+tenth \
  plain+judge+cupti plain+judge+gap30 plain+judge+stop plain+judge+cupti+gap30+stop+tenth \
  > "$OUT/graph_chain_probe2.txt" 2>&1
echo "probe exit $?"; tail -10 "$OUT/graph_chain_probe2.txt"
timeout 120 python3 tools/gpu/graph_chain_probe.py 30 1048576:553 plain+judge plain+judge+cupti+gap30+stop+tenth \
  > "$OUT/graph_chain_probe3.txt" 2>&1
echo "probe exit $?"; tail -4 "$OUT/graph_chain_probe3.txt"
