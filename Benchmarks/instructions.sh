#!/usr/bin/env bash
# Instruction counts of the hot paths, against the committed baseline (issue 25 item 5).
#
#   Benchmarks/instructions.sh check    # count, compare with Benchmarks/instructions.tsv; exit 1 when
#                                       # one grew by more than 5 %  (`make bench-check`)
#   Benchmarks/instructions.sh record   # count and write the baseline  (`make bench-record`)
#   Benchmarks/instructions.sh show     # count and print, compare with nothing
#
# Instructions do not depend on the machine's load: callgrind counts them (valgrind), else
# `perf stat -e instructions:u`. Each figure is a whole process of the release build, with the
# clock fixed; a compile is counted as `--runs 1` minus `--runs 0` (the set-up subtracted).
# Needs `swift build -c release --product intents --product intents-bench` (the Makefile does it).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-check}
baseline=Benchmarks/instructions.tsv
limit_percent=${BENCH_LIMIT_PERCENT:-5}
bin=.build/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Swift seeds its hashing per process: iteration orders, and so the counts, moved by about 3 %
# between two runs of one binary. Fixed here, the same binary counts the same.
export INTENTS_NOW=2026-11-22T10:00:00Z TZ=UTC NO_COLOR=1 SWIFT_DETERMINISTIC_HASHING=1

if command -v valgrind >/dev/null; then
  counter=callgrind
  # Counted on copies without debug info: valgrind 3.19 gives up on the release binaries' DWARF
  # ("Possibly corrupted debuginfo file"); the instructions run are the same.
  mkdir -p "$work/bin"
  for program in intents intents-bench; do
    cp "$bin/$program" "$work/bin/$program"
    strip --strip-debug "$work/bin/$program"
  done
  bin=$work/bin
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
      | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -1
  }
elif command -v perf >/dev/null; then
  counter=perf
  count() { perf stat -x, -e instructions:u "$@" 2>&1 >/dev/null | awk -F, '/instructions/ { print $1 }' | tail -1; }
else
  echo "instructions.sh: needs valgrind or perf" >&2
  exit 2
fi

# The inputs: the 5,000-template load, 10,000 tasks to import.
"$bin/intents-bench" coldsay --runs 0 --keep "$work" >/dev/null
python3 - "$work/tasks.json" <<'EOF'
import json, sys
tasks = [{"id": f"t{n}", "title": f"task number {n} about {['taxes', 'milk', 'rent', 'the car'][n % 4]}",
          "urgency": "urgent" if n % 10 == 0 else "not_urgent", "isCompleted": n % 5 == 0,
          "createdAt": "2026-11-01T09:00:00Z"} for n in range(10_000)]
json.dump({"FocusBlox.Task": tasks}, open(sys.argv[1], "w"))
EOF

declare -a names figures
measure() {  # name, then the command
  local name=$1
  shift
  local figure
  figure=$(count "$@")
  [ -n "$figure" ] || { echo "instructions.sh: no count for $name ($*)" >&2; exit 2; }
  names+=("$name")
  figures+=("$figure")
  printf '  %-22s %14s\n' "$name" "$figure" >&2
}

echo "counting instructions ($counter) ..." >&2
measure version "$bin/intents" --version
# Cold say: a new process, the compiled cache warm (an earlier run wrote it), nothing written.
for load in bundled:Intents:"add buy milk to my tasks" load:"$work/Load":"add the invoice called quarterly numbers"; do
  IFS=: read -r label folder phrase <<<"$load"
  "$bin/intents" say --dry-run --intents "$folder" --store "$work/$label/store.sqlite" "$phrase" >/dev/null 2>&1 || true
  measure "say_cold_$label" "$bin/intents" say --dry-run --intents "$folder" --store "$work/$label/store.sqlite" "$phrase"
done
measure compile_setup "$bin/intents-bench" compile --runs 0
measure compile_1000_run "$bin/intents-bench" compile --runs 1 --only compile
measure match_bundled_ten_apps "$bin/intents-bench" match --rounds 1 --entities 10000
measure import_10000 "$bin/intents" store import --intents Intents --store "$work/import/store.sqlite" "$work/tasks.json"

# The compile itself: one run minus the set-up.
for i in "${!names[@]}"; do
  case ${names[$i]} in
    compile_setup) setup=${figures[$i]} ;;
    compile_1000_run) run=$i ;;
  esac
done
figures[$run]=$((figures[run] - setup))
names[$run]=compile_1000

current=$work/current.tsv
for i in "${!names[@]}"; do
  [ "${names[$i]}" = compile_setup ] && continue
  printf '%s\t%s\n' "${names[$i]}" "${figures[$i]}"
done >"$current"

case $mode in
  record)
    { echo "# name	instructions	($counter, $(date -u +%Y-%m-%d), $(git rev-parse --short HEAD))"; cat "$current"; } >"$baseline"
    cat "$baseline"
    ;;
  show) cat "$current" ;;
  check)
    [ -f "$baseline" ] || { echo "no baseline: make bench-record" >&2; exit 2; }
    status=0
    printf '%-24s %14s %14s %8s\n' figure baseline now change
    while IFS=$'\t' read -r name figure; do
      old=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$baseline")
      if [ -z "$old" ]; then
        printf '%-24s %14s %14s %8s\n' "$name" - "$figure" new
        continue
      fi
      change=$(awk -v a="$old" -v b="$figure" 'BEGIN { printf "%+.1f%%", (b - a) * 100 / a }')
      verdict=""
      if awk -v a="$old" -v b="$figure" -v l="$limit_percent" 'BEGIN { exit !(b > a * (1 + l / 100)) }'; then
        verdict="  grew more than ${limit_percent} %"
        status=1
      fi
      printf '%-24s %14s %14s %8s%s\n' "$name" "$old" "$figure" "$change" "$verdict"
    done <"$current"
    exit $status
    ;;
  *) echo "usage: $0 check|record|show" >&2; exit 2 ;;
esac
