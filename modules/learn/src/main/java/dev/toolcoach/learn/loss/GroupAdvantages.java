package dev.toolcoach.learn.loss;

/** Group-relative advantages: each rollout judged against its siblings from the same query. */
public final class GroupAdvantages {
    private GroupAdvantages() {
    }

    /**
     * (r - mean) / (std + eps) with the sample standard deviation, or r - mean when {@code normalise}
     * is false (Dr.GRPO drops the std division, which favours groups with small reward spread).
     */
    public static float[] of(double[] rewards, boolean normalise, double eps) {
        int n = rewards.length;
        double mean = 0;
        for (double r : rewards) mean += r;
        mean /= n;
        double var = 0;
        for (double r : rewards) var += (r - mean) * (r - mean);
        double std = n > 1 ? Math.sqrt(var / (n - 1)) : 0;
        float[] out = new float[n];
        for (int i = 0; i < n; i++) {
            double centred = rewards[i] - mean;
            out[i] = (float) (normalise ? centred / (std + eps) : centred);
        }
        return out;
    }
}
