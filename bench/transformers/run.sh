#!/usr/bin/env bash
# bench/transformers/run.sh -- GPT-style decoder training graphs at several
# depths (bench/transformers/gen.py: the zoo's GPT, ATen level, FLOP
# durations) solved by `remat solve` at budget fractions of the input
# order's peak: status, TDI, lower bound and the gap, one row each.
#
#   bench/transformers/run.sh [--remat PATH] [--python PATH] [--out DIR]
#                             [--layers "2 6 24 96"] [--budgets "0.5 0.3"]
#                             [--limit S] [--durations flops|profile]
#
# Graphs and results go to DIR (bench/out/transformers, git-ignored); the
# table (Markdown) to DIR/table.md and standard output.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
remat=$root/build/remat
python=${PYTHON:-/work/venv/bin/python}
out=$root/bench/out/transformers
layers="2 6 24 96"
budgets="0.5 0.3"
limit=60
durations=flops
while [ $# -gt 0 ]; do
  case "$1" in
  --remat) remat=$2; shift 2 ;;
  --python) python=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --layers) layers=$2; shift 2 ;;
  --budgets) budgets=$2; shift 2 ;;
  --limit) limit=$2; shift 2 ;;
  --durations) durations=$2; shift 2 ;;
  *) echo "bench/transformers/run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
missing=""
for l in $layers; do [ -s "$out/gpt_${l}l.json" ] || missing="$missing $l"; done
# the package from this tree (its C library: make pylib)
[ -z "$missing" ] || PYTHONPATH=$root/python "$python" "$here/gen.py" "$out" $missing \
  --durations "$durations"

{
  echo "transformers: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
    "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)," \
    "torch $("$python" -c 'import torch; print(torch.__version__)'), --time-limit $limit"
  echo
  echo "| layers | nodes | budget | status | TDI % | bound TDI % | gap (points) | best at (s) |"
  echo "|---|---|---|---|---|---|---|---|"
} >"$out/table.md"
for l in $layers; do
  g=$out/gpt_${l}l.json
  for b in $budgets; do
    r=$out/gpt_${l}l_$b.json
    "$remat" solve "$g" --budget "$b" --time-limit "$limit" -q -o "$r" 2>"$out/gpt_${l}l_$b.err" || true
    jq -r --arg l "$l" --arg b "$b" '
      def f: if . == null then "-" else (. * 100 | round / 100 | tostring) end;
      "| \($l) | \(.n) | \($b) | \(.status) | \(.tdi_percent | f) | \(.lower_bound_tdi_percent | f) | " +
      "\(if .lower_bound_tdi_percent == null or (.within_budget | not) then "-" else ((.tdi_percent - .lower_bound_tdi_percent) | f) end) | " +
      "\(.time_to_best_s | f) |"' "$r" >>"$out/table.md"
  done
done
cat "$out/table.md"
