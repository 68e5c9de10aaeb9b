#!/usr/bin/env bash
# demo.sh -- the main job on a bundled example: a 120-node random layered
# graph at 80% of its input order's peak memory.  Solves it, re-simulates
# the schedule, and draws the three pictures.  Output in build/demo/.
# Usage: scripts/demo.sh [path/to/remat]
set -euo pipefail
remat=${1:-build/remat}
graph=examples/layered_120.json
out=build/demo
mkdir -p "$out"

echo "== the graph"
"$remat" info "$graph"

echo
echo "== remat solve $graph --budget 0.8 --time-limit 20"
"$remat" solve "$graph" --budget 0.8 --time-limit 20 -o "$out/result.json"

echo
echo "== re-simulated"
"$remat" eval "$graph" "$out/result.json" --budget 0.8

echo
echo "== pictures"
"$remat" plot intervals "$graph" "$out/result.json" -o "$out/intervals.svg"
"$remat" plot memory "$graph" topo "$out/result.json" -o "$out/memory.svg"
"$remat" plot progress "$out/result.json" -o "$out/progress.svg"
ls -l "$out"/*.svg "$out/result.json"
