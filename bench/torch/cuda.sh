#!/bin/sh
# bench/torch/cuda.sh DIR [TARBALL]: remat.torch.wrap and PyTorch's own
# memory savers on a CUDA device, every peak the caching allocator's
# (torch.cuda.max_memory_allocated above what was allocated before the step:
# remat.torch.measure).  Run from the repository's root with a PyTorch that
# sees a GPU and the C library built (`make pylib`, or REMAT_LIB naming it).
#
# Steps, each under its own time limit so that one slow step leaves the
# others their time (seconds; CUDA_STEP_SCALE multiplies them all):
#   1. env.txt: the GPU, the driver, torch's version, the commit
#   2. pytest's CUDA tests (a hand-counted peak; wrapped models' gradients
#      and measured peaks against the plain models' and the plans')     60
#   3. bench/peers/models.py on GPT-2 small's shape (bench/torch/common.py):
#      checkpoint per block, checkpoint_sequential, SAC, torch.compile's
#      budget (greedy knapsack, the partitioner alone) and remat.torch.wrap
#      at budgets 0.7 to 0.1                                            220
#   4. the same model on Inductor (fused kernels): torch.compile's budget
#      at 1.0 and 0.1, and remat.torch.policy's tags (remat-compile) at
#      0.7, 0.3 and 0.1                                                 300
#   5. bench/torch/run.py on six small zoo models: predicted against
#      measured peak, gradients against the plain model's, at 0.7/0.5/0.3 120
#   6. bench/peers/models.py on gpt_4l, compile with dp and greedy       80
# Each step writes DIR/NAME/ (table.md, results.json, SVGs) and DIR/NAME.log;
# after each, DIR is packed into TARBALL when one is named, so a run cut
# short keeps what it finished.  CUDA_SH_DEVICE=cpu makes a dry run of the
# script itself on a machine without a GPU.
set -u
DIR=${1:?usage: bench/torch/cuda.sh DIR [TARBALL]}
TARBALL=${2:-}
PY=${PYTHON:-python3}
SCALE=${CUDA_STEP_SCALE:-1}
DEV=${CUDA_SH_DEVICE:-cuda}
export PYTHONUNBUFFERED=1
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
mkdir -p "$DIR" || exit 2

pack() {
    [ -n "$TARBALL" ] && tar -C "$(dirname "$DIR")" -czf "$TARBALL" "$(basename "$DIR")"
    return 0
}

# step NAME SECONDS COMMAND...: COMMAND under a time limit, its output in
# DIR/NAME.log, one line per step on stdout.
step() {
    name=$1 limit=$(( $2 * SCALE )); shift 2
    t0=$(date +%s)
    timeout -k 5 "$limit" "$@" >"$DIR/$name.log" 2>&1
    rc=$?
    echo "cuda.sh: $name: exit $rc after $(( $(date +%s) - t0 )) s (limit $limit s)"
    pack
}

{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    "$PY" -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0) if torch.cuda.is_available() else "NO CUDA DEVICE")'
    nproc
    git rev-parse HEAD 2>/dev/null
    date -u +%Y-%m-%dT%H:%M:%SZ
} >"$DIR/env.txt" 2>&1
cat "$DIR/env.txt"

step pytest 60 "$PY" -m pytest -q -p no:cacheprovider -k cuda -rA \
    python/tests/test_torch_measure.py python/tests/test_torch_wrap.py
step peers-gpt2 220 "$PY" bench/peers/models.py --device "$DEV" --threads 0 \
    --models gpt2_small --compile-budgets 1.0,0.5,0.1 --solvers greedy \
    --remat-budgets 0.7,0.5,0.3,0.2,0.1 --time-limit 15 --reps 5 \
    --out "$DIR/peers-gpt2"
step inductor-gpt2 300 "$PY" bench/peers/models.py --device "$DEV" --threads 0 \
    --models gpt2_small --methods compile,remat-compile --compile-backend inductor \
    --compile-budgets 1.0,0.1 --solvers greedy --remat-budgets 0.7,0.3,0.1 \
    --time-limit 15 --reps 5 --out "$DIR/inductor-gpt2"
step wrap-small 120 "$PY" bench/torch/run.py --device "$DEV" --threads 0 \
    --models gpt_4l,llama,resnet18,vit_small,swin_small,unet \
    --budgets 0.7,0.5,0.3 --time-limit 3 --reps 5 --out "$DIR/wrap-small"
step peers-gpt4l 80 "$PY" bench/peers/models.py --device "$DEV" --threads 0 \
    --models gpt_4l --compile-budgets 1.0,0.5,0.1 --solvers dp,greedy \
    --remat-budgets 0.7,0.5,0.3 --time-limit 5 --reps 5 --out "$DIR/peers-gpt4l"
echo "cuda.sh: done"
