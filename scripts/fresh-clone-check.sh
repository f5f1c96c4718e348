#!/usr/bin/env bash
# The regression guard for "a fresh clone passes its own tests": clones the
# committed HEAD into an empty temporary folder (nothing beside it, so no
# ../shared), hides the system tools (Chromium, minisign, ssh-keygen) from PATH,
# and runs the README's two commands there. Tests that need a hidden tool must
# skip, never fail. `npm run check:fresh-clone`; .ci/run runs it after the suite.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/parapet-fresh-XXXXXX")"
trap 'rm -rf "$work"' EXIT

if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
  git clone -q --no-hardlinks "$repo" "$work/parapet"
  echo "fresh clone of $(git -C "$repo" rev-parse --short HEAD) in $work/parapet"
else
  # Not a git checkout (an unpacked archive): copy what a clone would hold.
  mkdir "$work/parapet"
  tar -C "$repo" --exclude=./node_modules --exclude=./dist --exclude=./test-results -cf - . | tar -C "$work/parapet" -xf -
  echo "copy of $repo in $work/parapet (not a git checkout)"
fi

# PATH without the system tools: every other executable on PATH, linked into one folder.
hidden=" chromium chromium-browser chromedriver minisign ssh-keygen "
shadow="$work/bin"
mkdir "$shadow"
IFS=: read -ra dirs <<< "$PATH"
for dir in "${dirs[@]}"; do
  [ -d "$dir" ] || continue
  for file in "$dir"/*; do
    name="${file##*/}"
    [[ "$hidden" == *" $name "* ]] && continue
    [ -x "$file" ] && [ ! -e "$shadow/$name" ] && ln -s "$file" "$shadow/$name"
  done
done
for name in $hidden; do
  if PATH="$shadow" command -v "$name" >/dev/null 2>&1; then echo "could not hide $name" >&2; exit 1; fi
done

cd "$work/parapet"
run() { env -u PARAPET_REQUIRE_SYSTEM_TOOLS -u PARAPET_VECTORS -u PARAPET_CHROMIUM PATH="$shadow" "$@"; }
run npm ci --no-audit --no-fund
run npm start >/dev/null
run npm test
echo "fresh clone: npm ci && npm start and npm ci && npm test pass with the system tools hidden"
