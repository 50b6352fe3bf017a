#!/bin/sh
# npm test with the machine loaded: Debian's stress-ng keeps every core busy (--cpu 2, the CI
# machine's two cores) beside each run, and the suite must pass RUNS times in a row (default 3).
# Usage: npm run test:loaded [-- RUNS]     (needs `apt-get install stress-ng`)
set -u
runs=${1:-3}
if ! command -v stress-ng >/dev/null 2>&1; then
  echo "test:loaded needs stress-ng (Debian: apt-get install stress-ng)" >&2
  exit 2
fi
stress=''
stop_stress() {
  if [ -n "$stress" ]; then
    kill "$stress" 2>/dev/null
    wait "$stress" 2>/dev/null
    stress=''
  fi
}
trap 'stop_stress' EXIT
trap 'stop_stress; exit 130' INT TERM
i=1
while [ "$i" -le "$runs" ]; do
  stress-ng --cpu 2 --timeout 0 --quiet &
  stress=$!
  echo "test:loaded: run $i of $runs, beside stress-ng --cpu 2 (pid $stress)" >&2
  if ! npm test; then
    stop_stress
    echo "test:loaded: run $i of $runs failed" >&2
    exit 1
  fi
  stop_stress
  i=$((i + 1))
done
echo "test:loaded: npm test passed $runs times in a row beside stress-ng --cpu 2" >&2
