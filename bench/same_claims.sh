#!/usr/bin/env bash
# same_claims.sh -- the claims remat makes on the published graphs, one line
# per run, to diff before and after a change that must not alter behaviour:
# status, TDI and lower bound of `remat solve` at budgets 0.9 and 0.8 with
# one thread and seed 1.
# Usage: bash bench/same_claims.sh [REMAT] [GRAPH_DIR] [TIME_LIMIT]
set -uo pipefail

remat=${1:-build/remat}
graphs=${2:-${REMAT_GRAPHS:-../shared/graphs}}
limit=${3:-20}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

for g in "$graphs"/*.json; do
  for b in 0.9 0.8; do
    rm -f "$out"
    "$remat" solve "$g" --budget "$b" --threads 1 --seed 1 \
      --time-limit "$limit" -q -o "$out" >/dev/null 2>&1
    rc=$?
    if [ -s "$out" ]; then
      claims=$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
print(r.get("status"), r.get("tdi_percent"), r.get("lower_bound"))' "$out")
    else
      claims="no-output"
    fi
    echo "$(basename "$g" .json) $b rc=$rc $claims"
  done
done
