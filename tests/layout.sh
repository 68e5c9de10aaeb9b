#!/usr/bin/env bash
# layout.sh -- the rules of src/'s layout (docs/architecture.md):
#   - src/ is one folder per wing, ranked bottom-up by WINGS in the
#     Makefile; a file includes headers of its own wing or of a wing
#     below it, never above;
#   - header names are unique across wings (includes name no folder);
#   - no include cycle between modules (a module is a name: x.c, x.h);
#   - no file in src/ longer than 800 lines;
#   - no circle of files, by includes or by calls: a file points to the
#     modules it includes and, from the objects' symbols (nm on
#     OBJDIR/**/*.o, default build/obj), to the files whose symbols it
#     uses; no file reaches itself (within a folder too); each breach
#     names the files and the symbols or headers that tie them;
#   - docs/architecture.md's Files section names every file of src/ (cmd_*
#     as a group).
# Usage: bash tests/layout.sh [ROOT [OBJDIR]]   (prints every breach, exit 1 if any)
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
calls=$(mktemp)
trap 'rm -f "$edges" "$calls"' EXIT
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
    [ "$m" = "$mod" ] || echo "$w/$mod $hw/$m #include:$inc" >>"$calls"
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done

if ! out=$(tsort "$edges" 2>&1 >/dev/null); then
  breach "include cycle between modules: $(echo "$out" | sed -n 's/^tsort: //p' | grep -v loop | tr '\n' ' ')"
fi

# calls between files, "user definer symbol", one line per use, beside
# the includes above ("includer included #include:header")
objdir=${2:-build/obj}
objs=$(find "$objdir" -name '*.o' 2>/dev/null | sort)
[ -n "$objs" ] || breach "no objects in $objdir/ to read the calls from (build first)"
for o in $objs; do
  f=${o#"$objdir"/}
  f=${f%.o}
  # only the objects of today's sources (a moved file leaves its old one)
  [ -e "src/$f.c" ] || [ -e "src/$f.cpp" ] || continue
  nm -P "$o" | awk -v f="$f" '{ print f, $2, $1 }'
done | awk '
  $2 == "U" { use[++n] = $1 " " $3; next }
  $2 !~ /^[wvU]$/ { def[$3] = $1 }
  END {
    for (i = 1; i <= n; i++) {
      split(use[i], u, " ")
      if ((u[2] in def) && def[u[2]] != u[1]) print u[1], def[u[2]], u[2]
    }
  }' >>"$calls"

# The strongly connected components of the graph of includes and calls
# (Tarjan): each one of more than one file is a circle.
while read -r line; do
  breach "circle of files by includes and calls: $line"
done < <(sort -u "$calls" | awk '
  { key = $1 SUBSEP $2
    if (!(key in sym)) { out[$1] = out[$1] " " $2; node[$1]; node[$2]; sym[key] = $3 }
    else if (index("," sym[key] ",", "," $3 ",") == 0) sym[key] = sym[key] "," $3 }
  function visit(v,   ws, w, k, i, j, m, comp) {
    idx[v] = low[v] = ++t; stack[++sp] = v; on[v] = 1
    m = split(out[v], ws, " ")
    for (i = 1; i <= m; i++) {
      w = ws[i]
      if (!(w in idx)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
      else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
    }
    if (low[v] != idx[v]) return
    k = 0; comp = ""
    do { w = stack[sp--]; on[w] = 0; member[++k] = w } while (w != v)
    if (k < 2) return
    for (i = 1; i <= k; i++) incomp[member[i]] = v
    for (i = 1; i <= k; i++) {
      m = split(out[member[i]], ws, " ")
      for (j = 1; j <= m; j++)
        if (incomp[ws[j]] == v)
          comp = comp (comp == "" ? "" : "; ") member[i] " -> " ws[j] " (" sym[member[i] SUBSEP ws[j]] ")"
    }
    print comp
  }
  END { for (v in node) if (!(v in idx)) visit(v) }')

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
