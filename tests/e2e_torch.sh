#!/usr/bin/env bash
# e2e_torch.sh -- the Python bridge (remat-torch, remat-onnx: the package's
# entry points run by $REMAT_PY -m ...):
# three small models of tests/torch_models.py exported for inference and for
# training, solved at 0.6 and 0.8, and run along the schedules (outputs and
# gradients equal to the plain model's, the measured peak equal to remat
# eval's); torchvision's AlexNet in free order, proven optimal over every
# order; node sizes checked by hand; an ONNX export; bad inputs (exit 2,
# one line, no traceback).  REMAT_PY is a Python (a virtual environment's)
# with PyTorch 2 in which the remat package imports (PYTHONPATH=python works
# in the source tree); the test skips (exit 0) when it is unset or cannot
# import torch.
# Usage: REMAT=build/remat REMAT_PY=venv/bin/python bash tests/e2e_torch.sh
set -euo pipefail
PY=${REMAT_PY:-}
if [ -z "$PY" ]; then
  echo "SKIP (e2e_torch): REMAT_PY is not set (a Python with PyTorch 2" \
       "and the remat package, e.g. REMAT_PY=venv/bin/python)"
  exit 0
fi
# the source tree's package first
export PYTHONPATH="$(cd "$(dirname "$0")/.." && pwd)/python${PYTHONPATH:+:$PYTHONPATH}"
if ! "$PY" -c 'import torch, remat.torch' 2>/dev/null; then
  echo "SKIP (e2e_torch): $PY cannot import torch and remat.torch"
  exit 0
fi
. "$(dirname "$0")/lib.sh"

# the entry points as the console scripts run them
printf '%s\n' '#!/bin/sh' "exec \"$PY\" -c 'from remat.torch.torch_cmd import console; console()' \"\$@\"" >"$tmp/remat-torch"
printf '%s\n' '#!/bin/sh' "exec \"$PY\" -c 'from remat.onnx.cli import console; console()' \"\$@\"" >"$tmp/remat-onnx"
chmod +x "$tmp/remat-torch" "$tmp/remat-onnx"
RT=$tmp/remat-torch
RO=$tmp/remat-onnx
M=$root/tests/torch_models.py

# report_field FILE SCHEDULE KEY: KEY's value in SCHEDULE's section of a
# run report
report_field() {
  awk -v s="$2" -v k="$3:" '$1 == "schedule:" { in_s = ($2 == s) }
                            in_s && $1 == k { sub(/^[^:]*: /, ""); print; exit }' "$1"
}

# ---------------------------------------------------- export, solve, run
# model | input | training batch.  Inference runs at batch 4; training at
# a batch where the activations outweigh the gradients (they live until the
# backward returns, and no schedule's peak is below them).
while IFS='|' read -r name shape tbatch; do
  for mode in infer train; do
    t_case "$name $mode: export, solve, run"
    flag="--batch 4"
    [ "$mode" = train ] && flag="--train --batch $tbatch"
    g=$name-$mode.json
    s6=$name-$mode-0.6.json
    s8=$name-$mode-0.8.json
    run "$RT" export "$M:$name" --input "$shape" $flag -o "$g" -q
    [ "$rc" = 0 ] || fail "export $name $mode: exit $rc: $err"
    "$REMAT" info "$g" >/dev/null || fail "remat info $g"
    [ "$(jq -r '[.nodes[] | select(.op and .label)] | length' "$g")" = \
      "$(jq -r '.nodes | length' "$g")" ] || fail "$g: a node without op or label"
    [ "$(jq -r .train "$g")" = "$([ "$mode" = train ] && echo true || echo false)" ] ||
      fail "$g: train flag"
    # the two budgets side by side, one thread each
    "$REMAT" solve "$g" --budget 0.6 -o $s6 --time-limit 5 --threads 1 -q \
      >/dev/null 2>&1 & p6=$!
    "$REMAT" solve "$g" --budget 0.8 -o $s8 --time-limit 5 --threads 1 -q \
      >/dev/null 2>&1 & p8=$!
    rc6=0; wait $p6 || rc6=$?
    rc8=0; wait $p8 || rc8=$?
    [ "$rc8" = 0 ] || fail "solve $g at 0.8: exit $rc8"
    # 0.6 is out of reach of the transformer's inference graph (3 is
    # nothing within budget): its best schedule is run all the same
    case $rc6 in 0|3) ;; *) fail "solve $g at 0.6: exit $rc6" ;; esac
    [ -s $s6 ] || fail "solve $g at 0.6 wrote no result"
    run "$RT" run "$M:$name" "$g" $s6 $s8 -q
    want=0; [ "$rc6" = 3 ] && want=3
    [ "$rc" = "$want" ] || fail "run $g: exit $rc, want $want: $err"
    grep -q '^input_order: equal' out.txt || fail "run $g: input order: $out"
    for s in $s6 $s8; do
      outputs=$(report_field out.txt $s outputs)
      case $outputs in equal*) ;; *) fail "run $g $s: outputs $outputs" ;; esac
      measured=$(report_field out.txt $s peak_measured)
      simulated=$(report_field out.txt $s peak_simulated)
      evalpeak=$("$REMAT" eval "$g" $s | awk '$1 == "peak:" { print $2 }') || true
      [ -n "$measured" ] && [ "$measured" = "$simulated" ] &&
        [ "$measured" = "$evalpeak" ] ||
        fail "run $g $s: peak measured $measured, simulated $simulated, remat eval $evalpeak"
      within=$(report_field out.txt $s within_budget)
      if [ $s = $s8 ] || [ "$rc6" = 0 ]; then w=yes; else w=no; fi
      [ "$within" = $w ] || fail "run $g $s: within_budget $within, want $w"
    done
    [ "$(report_field out.txt $s6 recomputations)" -gt 0 ] ||
      fail "run $g: no recomputation at 0.6"
  done
done <<'EOF'
mlp|32|128
rescnn|3x16x16|4
transformer|8x16|32
EOF

# ------------------------------------ free order on a torchvision model
# AlexNet's training graph (flops durations: the same graph on every
# machine; the gradients as fixed memory, as in Checkmate's graphs: at
# batch 1 AlexNet's 244 MB of gradients would leave nothing to schedule)
# at 0.9: the plain covering bound over every order stays below the
# optimum; with the inputs' rows it meets it, so free order ends optimal
# over every sequence in any order.
t_case "alexnet train: free order optimal over every order"
run "$RT" export alexnet --input 3x64x64 --train --durations flops --grads fixed -o alexnet.json -q
[ "$rc" = 0 ] || fail "export alexnet: exit $rc: $err"
run "$REMAT" solve alexnet.json --budget 0.9 --free-order --time-limit 120 -o alexnet-free.json
[ "$rc" = 0 ] || fail "solve alexnet: exit $rc: $err"
[ "$(jq -r '.status + " " + .proof_covers' alexnet-free.json)" = "optimal any-order" ] ||
  fail "alexnet free order: $(jq -c '[.status, .proof_covers, .tdi_percent]' alexnet-free.json)"
grep -q 'optimal   TDI 0.002% is the covering bound over every order' <<<"$err" ||
  fail "alexnet free order: no proof by the covering bound over every order: $err"
# remat info -t: the bound over every order (its CBC takes whatever time
# it gets at 0.8) leaves the input order's bound time for its inputs'
# rows, which prove the fixed order's optimum
run "$REMAT" info alexnet.json --budget 0.8 --time-limit 10
grep -q '^lower_bound: duration 696191870  TDI 0.0046% (covering bound, input order' <<<"$out" ||
  fail "alexnet info -t 10: $out"

# ------------------------------------------------- node sizes by hand
t_case "node sizes by hand"
# MLP at batch 4: every hidden activation is 4 x 32 float32 = 512 B, the
# logits 4 x 10 x 4 = 160 B; the weights' transposes are views of fixed
# memory; the parameters are 7 x (32 x 32 + 32) + 32 x 10 + 10 floats.
g=mlp-infer.json
[ "$(jq -r '[.nodes[] | select(.op == "aten.relu") | .memory] | unique | @csv' $g)" = 512 ] ||
  fail "$g: relu outputs are not 512 B"
[ "$(jq -r '.nodes[-1].memory' $g)" = 160 ] || fail "$g: logits are not 160 B"
[ "$(jq -r '.fixed_aliases | length' $g)" = 8 ] || fail "$g: 8 transposed weights expected"
[ "$(jq -r .param_bytes $g)" = 30888 ] || fail "$g: parameter bytes"
g=mlp-train.json
[ "$(jq -r '.grad_bytes' $g)" = 30888 ] || fail "$g: gradient bytes"
jq -e '[.nodes[] | select(.op | test("bernoulli"))] | length == 1' $g >/dev/null ||
  fail "$g: the dropout mask is not one node"
jq -e '[.nodes[] | select(.backward)] | length > 0' $g >/dev/null ||
  fail "$g: no backward node"

# ------------------------------------------------------------ mismatches
t_case "mismatches"
jq '.nodes[3].label = "relu_99"' mlp-infer.json >bad-graph.json
run "$RT" run "$M:mlp" bad-graph.json mlp-infer-0.8.json -q
[ "$rc" = 2 ] && [[ $err == *"bad-graph.json does not match the trace of"* ]] ||
  fail "mismatching graph: exit $rc: $err"
run "$RT" run "$M:transformer" transformer-train.json transformer-train-0.8.json \
  --batch 2 -q
[ "$rc" = 2 ] && [ "$err" = "remat-torch: --batch 2 differs from transformer-train.json's 32" ] ||
  fail "option differing from the graph's: exit $rc: $err"
"$REMAT" solve mlp-infer.json --budget 16 -q -o none.json >/dev/null || true
run "$RT" run "$M:mlp" mlp-infer.json none.json -q
[ "$rc" = 2 ] && [[ $err == "remat-torch: none.json: the result has no schedule (infeasible: budget 16 is below "* ]] ||
  fail "result without a schedule: exit $rc: $err"
echo '[0, 2, 1]' >order.json
run "$RT" run "$M:transformer" transformer-train.json order.json -q
[ "$rc" = 2 ] && [[ $err == *"before its input"* ]] ||
  fail "schedule reading before computing: exit $rc: $err"

# ------------------------------------------------------------------ ONNX
t_case "ONNX"
"$PY" -B - "$M" <<'EOF'
import importlib.util, sys, torch
spec = importlib.util.spec_from_file_location("m", sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
torch.manual_seed(0)
net = m.rescnn().eval()
x = torch.randn(2, 3, 16, 16)
torch.onnx.export(net, x, "rescnn.onnx", opset_version=13)
torch.onnx.export(net, x, "dynamic.onnx", opset_version=13,
                  input_names=["x"], dynamic_axes={"x": {0: "batch"}})
EOF
run "$RO" rescnn.onnx -o onnx.json -q
[ "$rc" = 0 ] || fail "remat-onnx: exit $rc: $err"
# batch 2 x 8 channels x 16 x 16 float32 per convolution
[ "$(jq -r '[.nodes[] | select(.op == "onnx.Conv") | .memory] | unique | @csv' onnx.json)" = 16384 ] ||
  fail "onnx.json: Conv outputs are not 16384 B"
[ "$(jq -r .input_bytes onnx.json)" = 6144 ] || fail "onnx.json: input bytes"
"$REMAT" solve onnx.json --budget 0.8 -o so.json --time-limit 5 -q >/dev/null ||
  fail "solve onnx.json at 0.8"
"$REMAT" eval onnx.json so.json >/dev/null || fail "eval onnx.json"
run "$RO" dynamic.onnx -o dyn.json -q
[ "$rc" = 2 ] && [ "$err" = "remat-onnx: dynamic.onnx: input 'x' has a symbolic dimension 'batch': give --batch N" ] ||
  fail "dynamic batch without --batch: exit $rc: $err"
run "$RO" dynamic.onnx --batch 3 -o dyn.json -q
[ "$rc" = 0 ] || fail "dynamic batch with --batch 3: exit $rc: $err"
[ "$(jq -r '[.nodes[] | select(.op == "onnx.Conv") | .memory] | unique | @csv' dyn.json)" = 24576 ] ||
  fail "dyn.json: Conv outputs at batch 3 are not 24576 B"

# ------------------------------------------------------------ bad inputs
t_case "bad inputs"
head -c 3000 rescnn.onnx >truncated.onnx
printf 'not a model\n' >text.onnx
# command | exit code | the start of the one-line message
while IFS='|' read -r cmd code message; do
  [ -z "$cmd" ] && continue
  run eval "$cmd"
  [ "$rc" = "$code" ] || fail "$cmd: exit $rc, want $code: $err"
  [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "$cmd: more than one line: $err"
  [[ $err != *Traceback* ]] || fail "$cmd: a traceback"
  [[ $err == "$message"* ]] || fail "$cmd: message '$err', want '$message...'"
done <<EOF
"$RT" export resnet1000 --input 3x64x64 -o x.json|2|remat-torch: unknown model 'resnet1000': neither a torchvision model name
"$RT" export $M:mlp --input 31 -o x.json|2|remat-torch: $M:mlp (inference, batch 1, input 31) fails: RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x31 and 32x32)
"$RT" export $M:value_dependent --input 8 -o x.json|2|remat-torch: $M:value_dependent cannot be traced: its forward depends on the values of tensors
"$RT" export $M:not_a_module --input 8|2|remat-torch: $M:not_a_module: the factory returned 42 (int), not a torch.nn.Module
"$RT" export $M:mlp --input 3xx|2|remat-torch: --input '3xx': expected positive sizes
"$RO" truncated.onnx|2|remat-onnx: truncated.onnx: not an ONNX model
"$RO" text.onnx|2|remat-onnx: text.onnx: not an ONNX model
"$RO" missing.onnx|2|remat-onnx: missing.onnx: cannot read: No such file or directory
EOF

t_done
