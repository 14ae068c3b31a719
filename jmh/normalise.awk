#!/usr/bin/awk -f
# Normalised speedups from the scores jmh/alternate.sh -o writes, as SWARE Fig. 20 draws them: every time is
# compared with the baseline structure's time at a reference value of one parameter in the same round (all other
# parameters equal), speedup = time(base, param=ref) / time(structure), and the median over rounds is printed.
#
#   jmh/alternate.sh -r 3 -o scores.tsv '\.MixedGridBenchmark\.' BETREE SA_BETREE,BPLUS,SA_BPLUS
#   awk -f jmh/normalise.awk -v base=BETREE -v param=sortedness -v ref=SCRAMBLED scores.tsv
#
# Output: one tab-separated line per benchmark, parameter set and structure: the key, the structure, the median
# normalised speedup and the rounds it is the median of. Times only (ms/op, ns/op): lower is better.
BEGIN { FS = OFS = "\t"; if (base == "" || param == "" || ref == "") { print "set -v base=, -v param= and -v ref=" > "/dev/stderr"; exit 2 } }
{ score[$1, $2, $3] = $4; keys[$1] = 1; structures[$3] = 1; if ($2 > maxRound) maxRound = $2 }
END {
  for (k in keys) {
    refKey = k
    if (!sub(" " param "=[^ ]*", " " param "=" ref, refKey)) { print "no parameter " param " in: " k > "/dev/stderr"; exit 2 }
    for (s in structures) {
      n = 0
      for (r = 1; r <= maxRound; r++) {
        if (((refKey, r, base) in score) && ((k, r, s) in score)) ratios[++n] = score[refKey, r, base] / score[k, r, s]
      }
      if (n == 0) continue
      for (i = 2; i <= n; i++) { v = ratios[i]; for (j = i - 1; j >= 1 && ratios[j] > v; j--) ratios[j + 1] = ratios[j]; ratios[j + 1] = v }
      median = n % 2 ? ratios[(n + 1) / 2] : (ratios[n / 2] + ratios[n / 2 + 1]) / 2
      printf "%s\t%s\t%.2f\t%d\n", k, s, median, n
      delete ratios
    }
  }
}
