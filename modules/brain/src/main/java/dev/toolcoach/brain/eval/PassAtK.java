package dev.toolcoach.brain.eval;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * pass@k of a sampling policy on queries: the chance that at least one of k samples solves a query, by the unbiased
 * estimator of Chen et al. (2021) from n >= k samples per query of which c are right, 1 - C(n-c, k) / C(n, k), averaged
 * over the queries. It is the ceiling GRPO can sharpen towards: what sampling already finds.
 *
 * @param queries     queries sampled
 * @param samples     samples per query (n)
 * @param k           k
 * @param temperature sampling temperature
 * @param passAtK     mean pass@k
 * @param passAt1     mean pass@1 (the share of right samples)
 */
public record PassAtK(int queries, int samples, int k, double temperature, @JsonProperty("pass_at_k") double passAtK,
                      @JsonProperty("pass_at_1") double passAt1) {

    /** From the right samples of each query, each out of {@code samples}. */
    public static PassAtK of(List<Integer> rightPerQuery, int samples, int k, double temperature) {
        if (k < 1 || samples < k) throw new IllegalArgumentException("pass@k needs 1 <= k <= samples, got k " + k + ", " + samples + " samples");
        double atK = rightPerQuery.stream().mapToDouble(c -> estimate(samples, c, k)).average().orElse(Double.NaN);
        double at1 = rightPerQuery.stream().mapToDouble(c -> estimate(samples, c, 1)).average().orElse(Double.NaN);
        return new PassAtK(rightPerQuery.size(), samples, k, temperature, atK, at1);
    }

    /** 1 - C(n-c, k) / C(n, k), as the product of (1 - k / i) for i from n-c+1 to n (no large binomials). */
    static double estimate(int n, int c, int k) {
        if (c < 0 || c > n) throw new IllegalArgumentException(c + " right of " + n + " samples");
        if (n - c < k) return 1.0;
        double allWrong = 1.0;
        for (int i = n - c + 1; i <= n; i++) allWrong *= 1.0 - (double) k / i;
        return 1.0 - allWrong;
    }
}
