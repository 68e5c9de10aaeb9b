# bench/sweep_args.sh -- the options of the sweeps that compare two builds
# on generated graphs (alone_sweep.sh, claims_sweep.sh, proofs_sweep.sh),
# sourced by them:
#
#   sweep_args NAME COUNT NODES "$@"
#
# reads --before OLD_REMAT, --after REMAT (default build/remat), --count K
# (default COUNT) and, when NODES is not empty, --nodes NMAX (default
# NODES); sets here (the repository), out (bench/out/NAME, created),
# before, after, count, nodes and bins ("before:OLD after:NEW", or
# "after:NEW" alone).  A bad option: the usage line, exit 2.
sweep_args() {
  local name=$1 usage
  count=$2 nodes=$3
  shift 3
  here=$(cd "$(dirname "$0")/.." && pwd)
  out=$here/bench/out/$name
  before= after=
  usage="usage: $0 [--before OLD_REMAT] [--after REMAT] [--count K]${nodes:+ [--nodes N]}"
  while [ $# -gt 0 ]; do
    case $1 in
      --before) before=$2; shift 2 ;;
      --after) after=$2; shift 2 ;;
      --count) count=$2; shift 2 ;;
      --nodes) [ -n "$nodes" ] || { echo "$usage" >&2; exit 2; }
               nodes=$2; shift 2 ;;
      *) echo "$usage" >&2; exit 2 ;;
    esac
  done
  after=${after:-$here/build/remat}
  mkdir -p "$out"
  bins="after:$after"
  [ -n "$before" ] && bins="before:$before $bins"
}
