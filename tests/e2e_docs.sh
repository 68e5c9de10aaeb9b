#!/usr/bin/env bash
# e2e_docs.sh -- the documentation against the code: docs/cli.md's reference
# is what the binary's --help prints, every citation of a measurement names
# an anchor that bench/RESULTS.md or bench/NOTEBOOK.md has, and every file
# the README links to exists.
# Usage: REMAT=build/remat bash tests/e2e_docs.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# docs/cli.md holds exactly what scripts/cli_md.sh generates from --help
# (bash scripts/cli_md.sh --update rewrites it)
t_case "docs/cli.md matches --help"
bash "$root/scripts/cli_md.sh" "$REMAT" >"$tmp/want.md" ||
  fail "scripts/cli_md.sh exited with $?"
awk '/^<!-- BEGIN generated/ { f = 1 } f' "$root/docs/cli.md" >"$tmp/have.md"
[ -s "$tmp/have.md" ] || fail "docs/cli.md has no generated part"
diff -u "$tmp/have.md" "$tmp/want.md" >"$tmp/diff" ||
  fail "docs/cli.md differs from --help (bash scripts/cli_md.sh --update): $(head -20 "$tmp/diff")"

# bench/RESULTS.md#NAME and bench/NOTEBOOK.md#NAME, wherever cited (code,
# tests, scripts, docs; the anchor may follow on the next words as
# "#NAME and #OTHER"), name an <a id="NAME"> of that file
t_case "citations name existing anchors"
cd "$root"
cites=$(git ls-files -co --exclude-standard 2>/dev/null || find . -type f | sed 's|^\./||')
n=0
while read -r file name; do
  n=$((n + 1))
  grep -qF "<a id=\"$name\"></a>" "bench/$file" ||
    fail "bench/$file has no anchor '$name' (cited by the tree)"
done < <(grep -ohE '(RESULTS|NOTEBOOK)\.md#[a-z0-9-]+( and #[a-z0-9-]+|, #[a-z0-9-]+)*' $cites 2>/dev/null |
  sed -E 's/^(RESULTS|NOTEBOOK)\.md#/\1.md #/; s/(, | and )/ /g' |
  awk '{ for (i = 2; i <= NF; i++) { sub(/^#/, "", $i); print $1, $i } }' | sort -u)
[ "$n" -gt 20 ] || fail "found only $n citations of bench/RESULTS.md"
cd "$tmp"

# the README's relative links name files of the tree
t_case "the README's links exist"
while read -r link; do
  [ -e "$root/${link%%#*}" ] || fail "README.md links to $link, which does not exist"
done < <(grep -oE '\]\([^)#:]+(#[^)]*)?\)' "$root/README.md" | sed -E 's/^\]\(//; s/\)$//' |
  grep -vE '^docs/(torch|onnx|slurm)\.md$' || true)

t_done
