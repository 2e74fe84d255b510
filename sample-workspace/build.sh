#!/usr/bin/env bash
# A build-like script: progress, a quiet step, and a summary.
set -e
for step in compile bundle minify; do
  for pct in 0 25 50 75 100; do printf '\r%-8s %3d%%' "$step" "$pct"; sleep 0.1; done
  printf '\n'
done
echo "running tests (quiet for 2 s)..."
sleep 2
echo "build ok"
