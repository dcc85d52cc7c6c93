#!/usr/bin/env bash
# The placement probe: 16 MiB allocations, each slab's made apart (all of
# A's, then all of B's), then interleaved again on the same machine.
for mode in --separate ""; do
  timeout 150 python3 tools/gpu/vmm_placement_probe.py --chunk=16777216 $mode 4 30 > "$OUT/vmm_chunk16${mode}.txt" 2>&1
  echo "mode '${mode}' exit $?"; tail -8 "$OUT/vmm_chunk16${mode}.txt"
done
timeout 120 python3 tools/gpu/vmm_placement_probe.py 2 30 > "$OUT/vmm_whole.txt" 2>&1
echo "whole slabs exit $?"; tail -5 "$OUT/vmm_whole.txt"
