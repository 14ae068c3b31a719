package io.nearsort.labtree.split;

/**
 * Split-defer-next (LAB-tree §4.1, Remark B.1): the split that maximises τ(x), the expected number of future
 * insertions into the leaf's range until either new leaf splits, assuming every missing key is equally likely to
 * come next. Every x in {i1 … iκ} is tried (the paper's brute force).
 *
 * <p>With b1, b2 free slots and d1, d2 missing keys, the left leaf splits at the (b1+1)-th insertion into its
 * range; when that is the (k+1)-th insertion overall with k in [b1, b1+b2], the right leaf has received k - b1 &lt;=
 * b2 and has not split. So τ(x) = Σ_{k=b1}^{b1+b2} (k+1)·P(T1 = k+1) + Σ_{k=b2}^{b1+b2} (k+1)·P(T2 = k+1), with
 * T1 negative-hypergeometric: P(T1 = k+1) = C(k, b1)·C(n-k-1, d1-b1-1) / C(n, d1), n = d1 + d2. τ is +∞ when
 * neither leaf can ever split (d1 &lt;= b1 and d2 &lt;= b2). Terms are evaluated in log space by ratios, O(κ) per
 * candidate, so ranges of any length work.
 */
public final class SplitDeferNext extends KeySplitObjective {
    /** Creates the policy; it holds no state, so one instance can split the leaves of any number of trees. */
    public SplitDeferNext() {
    }

    @Override
    double score(final Overflow leaf, final int j) {
        final long x = leaf.key(j);
        final Side left = new Side(leaf, leaf.low(), x, j);
        final Side right = new Side(leaf, x, leaf.high(), leaf.size() - j);
        if (left.safe() && right.safe()) {
            return Double.POSITIVE_INFINITY;
        }
        // A side that never splits only dilutes the insertions: model it as one with more free slots than keys.
        final long b1 = left.neverSplits ? left.missing : left.free;
        final long b2 = right.neverSplits ? right.missing : right.free;
        return expectedInsertionsUntilSplit(b1, left.missing, b2, right.missing);
    }

    /** τ for free slots b1, b2 and missing keys d1, d2 (Remark B.1). */
    static double expectedInsertionsUntilSplit(final long b1, final long d1, final long b2, final long d2) {
        return firstSplitTerms(b1, d1, b2, d2) + firstSplitTerms(b2, d2, b1, d1);
    }

    /** Σ_{k=b}^{b+bOther} (k+1)·P(this side's (b+1)-th insertion is the (k+1)-th overall). */
    private static double firstSplitTerms(final long b, final long d, final long bOther, final long dOther) {
        if (d <= b) {
            return 0; // this side never splits
        }
        final double n = (double) d + dOther;
        // P(T = b+1): the first b+1 insertions all land on this side.
        double logP = 0;
        for (long i = 0; i <= b; i++) {
            logP += Math.log((d - i) / (n - i));
        }
        double sum = 0;
        for (long k = b; k <= b + bOther; k++) {
            sum += (k + 1) * Math.exp(logP);
            // P(T = k+2) / P(T = k+1) = (k+1)/(k+1-b) · (n-k-1-(d-b-1)) / (n-k-1)
            final double others = n - k - 1 - (d - b - 1); // insertions left for the other side
            if (others <= 0) {
                break;
            }
            logP += Math.log((k + 1.0) / (k + 1 - b)) + Math.log(others / (n - k - 1));
        }
        return sum;
    }
}
