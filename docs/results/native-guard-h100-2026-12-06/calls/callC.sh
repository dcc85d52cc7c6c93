#!/usr/bin/env bash
# The placement probe with finer interleaved allocations: how fine must
# the two subjects' lent memory interleave for the offset to go?
for c in ${CHUNKS:-67108864 16777216}; do
  timeout 200 python3 tools/gpu/vmm_placement_probe.py --chunk=$c 4 30 > "$OUT/vmm_chunk_$c.txt" 2>&1
  echo "chunk $c exit $?"; tail -8 "$OUT/vmm_chunk_$c.txt"
done
