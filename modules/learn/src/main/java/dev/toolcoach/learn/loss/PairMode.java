package dev.toolcoach.learn.loss;

/** Which (chosen, rejected) pairs a scored group yields. */
public enum PairMode {
    /** One pair: the highest against the lowest reward. */
    BEST_VS_WORST,
    /** Every ordered pair whose reward gap reaches the minimum margin. */
    ALL_PAIRS
}
