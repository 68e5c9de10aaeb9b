#!/usr/bin/env bash
# e2e_docs.sh -- the documentation against the code: docs/cli.md's reference
# is what the binary's --help prints, every citation of a measurement names
# an anchor that bench/RESULTS.md or bench/NOTEBOOK.md has, and the
# documents' links name files and anchors that exist.
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

# the relative links of the README, docs/ and bench/'s two notebooks name
# files of the tree, and their anchors into bench/ name an <a id> there
t_case "the documents' links exist"
cd "$root"
for doc in README.md docs/*.md bench/RESULTS.md bench/NOTEBOOK.md; do
  dir=$(dirname "$doc")
  while read -r link; do
    path=${link%%#*}
    target=$dir/$path
    [ -n "$path" ] || target=$doc
    target=$(realpath -m --relative-to=. "$target")
    # linked before they are in the tree: drop this line once they are
    [ -e "$target" ] || { fail "$doc links to $link, which does not exist"; continue; }
    case $link in
      *#*) case $target in bench/*.md)
             grep -qF "<a id=\"${link#*#}\"></a>" "$target" ||
               fail "$doc links to $link: $target has no such anchor" ;;
           esac ;;
    esac
  done < <(grep -oE '\]\([^)[:space:]:]+\)' "$doc" | sed -E 's/^\]\(//; s/\)$//' | sort -u)
done
cd "$tmp"

t_done
