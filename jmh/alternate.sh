#!/usr/bin/env bash
# Compares structures of a JMH benchmark in alternating single forks: round 1 baseline, round 1 candidate(s),
# round 2 baseline, ... The speed of a shared or virtual machine drifts over minutes, and a plain JMH run with
# -p structure=A,B measures all of A's forks before any of B's, so the drift lands in the ratio. Alternating
# spreads it over both, and the median of the per-round ratios discards the rounds it distorted most. Several
# candidates, comma-separated, take their turns in every round.
#
#   jmh/alternate.sh [-r rounds] [-j java] [-o scores.tsv] regex baseline candidate[,candidate...] [JMH args]
#   jmh/alternate.sh -r 5 '\.PointLookupBenchmark\.lookup$' BPLUS SA_BPLUS -p workload=SCRAMBLED
#   jmh/alternate.sh -j /usr/lib/jvm/temurin-25-jdk-amd64/bin/java '\.IngestBenchmark\.' BPLUS SA_BPLUS
#   jmh/alternate.sh -r 3 '\.MixedGridBenchmark\.' BETREE SA_BETREE,BPLUS,SA_BPLUS
#
# Prints each round's scores and candidate / baseline, per benchmark method, parameter set and candidate, then
# the median ratio. -o FILE also writes every score as a tab-separated line (benchmark and parameters but the
# structure, round, structure, score, unit), for jmh/normalise.awk. For times (ns/op, ms/op) a ratio below 1 means the candidate is faster: ingest speedup = 1 / ratio,
# lookup overhead = ratio - 1. Needs jmh/target/benchmarks.jar (mvn -q -B package -DskipTests).
set -euo pipefail

rounds=5
java=java
jvm=()
scores=
while getopts "r:j:o:" opt; do
  case "$opt" in
    r) rounds="$OPTARG" ;;
    j) java="$OPTARG"; jvm=(-jvm "$OPTARG") ;;
    o) scores="$OPTARG" ;;
    *) echo "usage: $0 [-r rounds] [-j java] [-o scores.tsv] regex baseline candidate[,candidate...] [JMH arguments]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 3 ]; then
  echo "usage: $0 [-r rounds] [-j java] [-o scores.tsv] regex baseline candidate[,candidate...] [JMH arguments]" >&2
  exit 2
fi
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
  echo "-r (rounds) must be a positive integer (got: $rounds)" >&2
  exit 2
fi
regex="$1" baseline="$2" candidates="$3"
shift 3
IFS=, read -r -a candidate_list <<< "$candidates"
jar="$(dirname "$0")/target/benchmarks.jar"
if [ ! -f "$jar" ]; then
  echo "$jar is missing: build it with mvn -q -B package -DskipTests" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# JMH benchmarks the jar it was started from; a rebuild during the rounds must not change what is measured.
cp "$jar" "$work/benchmarks.jar"

for round in $(seq "$rounds"); do
  for structure in "$baseline" "${candidate_list[@]}"; do
    echo "== round $round: $structure" >&2
    "$java" -jar "$work/benchmarks.jar" "$regex" ${jvm[@]+"${jvm[@]}"} -f 1 -p structure="$structure" "$@" \
        -rf csv -rff "$work/$round-$structure.csv" > "$work/$round-$structure.log" 2>&1 \
      || { cat "$work/$round-$structure.log" >&2; exit 1; }
  done
done

# One line per result: key (benchmark and every parameter but the structure), round, structure, score, unit.
for f in "$work"/*-*.csv; do
  name=$(basename "$f" .csv)
  awk -F, -v round="${name%%-*}" -v structure="${name#*-}" '
    function unquote(s) { gsub(/["\r]/, "", s); return s } # JMH ends CSV lines with CR LF
    NR == 1 { for (i = 1; i <= NF; i++) { h[i] = unquote($i); if (h[i] == "Score") sc = i; if (h[i] == "Unit") un = i } next }
    {
      key = unquote($1)
      for (i = 1; i <= NF; i++) if (h[i] ~ /^Param: / && h[i] != "Param: structure") key = key " " substr(h[i], 8) "=" unquote($i)
      printf "%s\t%s\t%s\t%s\t%s\n", key, round, structure, $sc, unquote($un)
    }' "$f"
done | sort -t$'\t' -k1,1 -k2,2n > "$work/scores.tsv"
if [ -n "$scores" ]; then
  cp "$work/scores.tsv" "$scores"
fi
awk -F'\t' -v base="$baseline" -v cands="$candidates" '
  { keys[$1] = 1; score[$1, $2, $3] = $4; unit[$1] = $5; if ($2 > maxRound) maxRound = $2 }
  END {
    nc = split(cands, cand, ",")
    for (k in keys) {
      for (c = 1; c <= nc; c++) {
        printf "%s (%s)\n", k, unit[k]
        n = 0
        for (r = 1; r <= maxRound; r++) {
          if (!((k, r, base) in score) || !((k, r, cand[c]) in score)) continue
          ratio = score[k, r, cand[c]] / score[k, r, base]
          printf "  round %d: %s %.3f  %s %.3f  %s/%s %.3f\n", r, base, score[k, r, base], cand[c], score[k, r, cand[c]], cand[c], base, ratio
          ratios[++n] = ratio
        }
        for (i = 2; i <= n; i++) { v = ratios[i]; for (j = i - 1; j >= 1 && ratios[j] > v; j--) ratios[j + 1] = ratios[j]; ratios[j + 1] = v }
        median = n % 2 ? ratios[(n + 1) / 2] : (ratios[n / 2] + ratios[n / 2 + 1]) / 2
        printf "  median %s/%s over %d rounds: %.3f\n", cand[c], base, n, median
        delete ratios
      }
    }
  }' "$work/scores.tsv"
