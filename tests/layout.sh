#!/usr/bin/env bash
# layout.sh -- the rules of src/'s layout (docs/architecture.md):
#   - src/ is one folder per wing, ranked bottom-up by WINGS in the
#     Makefile; a file includes headers of its own wing or of a wing
#     below it, never above;
#   - header names are unique across wings (includes name no folder);
#   - no include cycle between modules (a module is a name: x.c, x.h);
#   - no file in src/ longer than 800 lines;
#   - docs/architecture.md's Files section names every file of src/ (cmd_*
#     as a group).
# Usage: bash tests/layout.sh [ROOT]   (prints every breach, exit 1 if any)
set -uo pipefail

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
wings=$(sed -n 's/^WINGS *:= *//p' Makefile)
[ -n "$wings" ] || { echo "layout: no WINGS in the Makefile" >&2; exit 2; }

declare -A rank wing_of
i=0
for w in $wings; do
  rank[$w]=$i
  i=$((i + 1))
done

bad=0
breach() {
  echo "layout: $*"
  bad=1
}

for d in src/*/; do
  w=$(basename "$d")
  [ -n "${rank[$w]+x}" ] || breach "src/$w/ is not a wing listed in WINGS"
done

for h in src/*/*.h; do
  name=$(basename "$h")
  w=$(basename "$(dirname "$h")")
  if [ -n "${wing_of[$name]+x}" ]; then
    breach "$name is in both src/${wing_of[$name]}/ and src/$w/"
  fi
  wing_of[$name]=$w
done

edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in src/*/*.c src/*/*.cpp src/*/*.h; do
  [ -e "$f" ] || continue
  w=$(basename "$(dirname "$f")")
  mod=$(basename "$f")
  mod=${mod%.*}
  lines=$(wc -l <"$f")
  [ "$lines" -le 800 ] || breach "$f has $lines lines (at most 800)"
  while read -r inc; do
    [ -n "$inc" ] || continue
    if [ -e "include/$inc" ]; then continue; fi
    hw=${wing_of[$inc]:-}
    if [ -z "$hw" ]; then
      breach "$f includes \"$inc\", which is in no wing"
      continue
    fi
    if [ "${rank[$hw]}" -gt "${rank[$w]}" ]; then
      breach "$f (wing $w) includes $inc from wing $hw, above it"
    fi
    m=${inc%.h}
    [ "$m" = "$mod" ] || echo "$mod $m" >>"$edges"
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done

if ! out=$(tsort "$edges" 2>&1 >/dev/null); then
  breach "include cycle between modules: $(echo "$out" | sed -n 's/^tsort: //p' | grep -v loop | tr '\n' ' ')"
fi

doc=docs/architecture.md
section=$(sed -n '/^## Files$/,/^## /p' "$doc")
[ -n "$section" ] || breach "$doc has no Files section"
for f in src/*/*.c src/*/*.cpp; do
  [ -e "$f" ] || continue
  mod=$(basename "$f")
  mod=${mod%.c}
  case $mod in cmd_*) grep -qF 'cmd_*' <<<"$section" && continue ;; esac
  grep -qw -- "$mod" <<<"$section" || breach "$f is not named in $doc's Files section"
done

exit $bad
