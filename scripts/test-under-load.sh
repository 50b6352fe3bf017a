#!/bin/sh
# The tests with the machine loaded: Debian's stress-ng keeps every core busy (--cpu 2, the CI
# machine's two cores) beside each run, and the tiers must pass RUNS times in a row (default 3).
# TIERS picks them: both (default: npm test, then npm run test:e2e), fast (npm test) or e2e.
# Usage: npm run test:loaded [-- RUNS [both|fast|e2e]]     (needs `apt-get install stress-ng`)
set -u
runs=${1:-3}
tiers=${2:-both}
case "$tiers" in
  both) scripts='test test:e2e' ;;
  fast) scripts='test' ;;
  e2e) scripts='test:e2e' ;;
  *)
    echo "test:loaded: the tiers are both, fast or e2e (not '$tiers')" >&2
    exit 2
    ;;
esac
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
  for script in $scripts; do
    echo "test:loaded: run $i of $runs, npm run $script beside stress-ng --cpu 2 (pid $stress)" >&2
    if ! npm run --silent "$script"; then
      stop_stress
      echo "test:loaded: run $i of $runs failed in npm run $script" >&2
      exit 1
    fi
  done
  stop_stress
  i=$((i + 1))
done
echo "test:loaded: npm run $(echo "$scripts" | sed 's/ / and npm run /') passed $runs times in a row beside stress-ng --cpu 2" >&2
