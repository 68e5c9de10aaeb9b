#!/usr/bin/env bash
# bench/transformers/run.sh -- decoder training graphs by model, width and
# depth, and other deep networks (bench/transformers/gen.py: the zoo's GPT
# and Llama decoders, its U-Net, torchvision's ResNet-152; ATen level,
# FLOP durations) solved by `remat solve` at budget fractions of the input
# order's peak: status, TDI, lower bound and the gap, one row each, and
# the TDI of a schedule in another order where the solve found a better one
# (its result's other_order: docs/method.md, "Another order").
#
#   bench/transformers/run.sh [--remat PATH] [--python PATH] [--out DIR]
#                             [--models "gpt llama"] [--widths "64"]
#                             [--layers "2 6 24 96"] [--extra "unet resnet152"]
#                             [--budgets "0.7 0.5 0.3"] [--limit S]
#                             [--durations flops|profile]
#
# --models: decoders (gpt, llama), each at every width and depth; --extra:
# graphs without a depth (unet, resnet152; "" for none).  Graphs already in
# DIR are reused.  Graphs and results go to DIR (bench/out/transformers,
# git-ignored); the table (Markdown) to DIR/table.md and standard output.
# The model column is the graph's name without its depth (gpt, llama_w128,
# unet: gen.py's file names).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
remat=$root/build/remat
python=${PYTHON:-python3} # one with torch (and torchvision for resnet152)
out=$root/bench/out/transformers
models="gpt llama"
widths=64
layers="2 6 24 96"
extra="unet resnet152"
budgets="0.7 0.5 0.3"
limit=60
durations=flops
while [ $# -gt 0 ]; do
  case "$1" in
  --remat) remat=$2; shift 2 ;;
  --python) python=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --models) models=$2; shift 2 ;;
  --widths) widths=$2; shift 2 ;;
  --layers) layers=$2; shift 2 ;;
  --extra) extra=$2; shift 2 ;;
  --budgets) budgets=$2; shift 2 ;;
  --limit) limit=$2; shift 2 ;;
  --durations) durations=$2; shift 2 ;;
  *) echo "bench/transformers/run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
# gen.py's file stem: MODEL_LAYERSl at width 64, MODEL_wW_LAYERSl otherwise
stem() { if [ "$2" = 64 ]; then echo "$1_$3l"; else echo "$1_w$2_$3l"; fi; }
graphs=""
# the package from this tree (its C library: make pylib)
gen() { PYTHONPATH=$root/python "$python" "$here/gen.py" "$out" "$@" --durations "$durations"; }
for m in $models; do
  for w in $widths; do
    missing=""
    for l in $layers; do
      s=$(stem "$m" "$w" "$l")
      graphs="$graphs $s"
      [ -s "$out/$s.json" ] || missing="$missing $l"
    done
    [ -z "$missing" ] || gen $missing --model "$m" --width "$w"
  done
done
for m in $extra; do
  graphs="$graphs $m"
  [ -s "$out/$m.json" ] || gen --model "$m"
done

{
  echo "transformers: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
    "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)," \
    "torch $("$python" -c 'import torch; print(torch.__version__)'), --time-limit $limit"
  echo
  echo "| model | layers | nodes | budget | status | TDI % | bound TDI % | gap (points) | best at (s) | other order TDI % |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} >"$out/table.md"
for s in $graphs; do
  g=$out/$s.json
  case "$s" in
  *_*l) model=${s%_*}; l=${s##*_}; l=${l%l} ;;
  *) model=$s; l=- ;;
  esac
  for b in $budgets; do
    r=$out/${s}_$b.json
    "$remat" solve "$g" --budget "$b" --time-limit "$limit" -q -o "$r" 2>"$out/${s}_$b.err" || true
    jq -r --arg m "$model" --arg l "$l" --arg b "$b" '
      def f: if . == null then "-" else (. * 100 | round / 100 | tostring) end;
      "| \($m) | \($l) | \(.n) | \($b) | \(.status) | \(.tdi_percent | f) | \(.lower_bound_tdi_percent | f) | " +
      "\(if .lower_bound_tdi_percent == null or (.within_budget | not) then "-" else ((.tdi_percent - .lower_bound_tdi_percent) | f) end) | " +
      "\(.time_to_best_s | f) | \(.other_order.tdi_percent | f) |"' "$r" >>"$out/table.md"
  done
done
cat "$out/table.md"
