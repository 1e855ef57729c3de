#!/usr/bin/env bash
# Prints the notes of one version in a Keep a Changelog file: the lines under its "## [VERSION]"
# heading (with or without " - DATE" after it), up to the next "## " heading or the link
# definitions at the end, without blank lines at either end. The release workflow passes them to
# `gh release create --notes-file`.
#
#   scripts/changelog-section.sh VERSION [CHANGELOG]    (CHANGELOG defaults to CHANGELOG.md)
#
# Exits 1, saying why on stderr, when the file has no such section or the section is empty;
# 2 on a usage error. VERSION is matched as text, never as a pattern.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ -z "$1" ]; then
  echo "usage: $0 VERSION [CHANGELOG]" >&2
  exit 2
fi
version=$1
file=${2:-CHANGELOG.md}

if [ ! -f "$file" ]; then
  echo "$file: no such file" >&2
  exit 1
fi

# awk exits 3 when the heading is missing; leading blank lines are skipped, and the command
# substitution drops the trailing ones.
status=0
notes=$(
  awk -v heading="## [$version]" '
    { sub(/\r$/, "") }
    found && (/^## / || /^\[[^]]*\]: /) { exit }
    found && !started && /^[[:space:]]*$/ { next }
    found { started = 1; print; next }
    index($0, heading) == 1 {
      rest = substr($0, length(heading) + 1)
      if (rest == "" || rest ~ /^[[:space:]]/) found = 1
    }
    END { exit found ? 0 : 3 }
  ' "$file"
) || status=$?

if [ "$status" = 3 ]; then
  echo "$file has no '## [$version]' section" >&2
  exit 1
elif [ "$status" != 0 ]; then
  exit "$status"
fi
if [ -z "${notes//[[:space:]]/}" ]; then
  echo "$file: the '## [$version]' section is empty" >&2
  exit 1
fi
printf '%s\n' "$notes"
