package dev.toolcoach.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import dev.toolcoach.model.config.ModelConfig;

/**
 * Keys and values of every layer for a batch of sequences, one row per sequence: [rows, kvHeads, capacity,
 * headDim]. All rows share the column clock: each forward writes its new tokens at columns [length, length + L),
 * and a row whose sequence started later has masked (never attended) columns on its left. Capacity grows in
 * chunks so a decode step writes in place instead of copying the cache.
 */
public final class KvCache implements AutoCloseable {
    private static final int CHUNK = 64;
    private static final int COLUMN_AXIS = 2;

    private final ModelConfig config;
    private final NDManager manager;
    private final NDArray[] keys;
    private final NDArray[] values;
    private int rows;
    private int length;
    private int capacity;

    public KvCache(ModelConfig config, NDManager parent, int rows) {
        this.config = config;
        this.manager = parent.newSubManager();
        this.keys = new NDArray[config.nLayers()];
        this.values = new NDArray[config.nLayers()];
        this.rows = rows;
        resize(0, CHUNK);
    }

    public int rows() {
        return rows;
    }

    /** Columns written so far (shared by all rows). */
    public int length() {
        return length;
    }

    /** Columns allocated; attention runs over all of them, the mask hides the unused ones. */
    public int capacity() {
        return capacity;
    }

    /** Makes room for {@code more} columns (a copy only when a chunk boundary is crossed). */
    public void reserve(int more) {
        if (length + more > capacity) {
            resize(0, roundUp(length + more));
        }
    }

    /** Writes keys and values [B, kvH, L, hd] at the next L columns. */
    void write(int layer, NDArray k, NDArray v) {
        long l = v.getShape().get(2);
        keys[layer].set(columns(length, length + l), k);
        values[layer].set(columns(length, length + l), v);
    }

    NDArray keys(int layer) {
        return keys[layer];
    }

    NDArray values(int layer) {
        return values[layer];
    }

    void advance(int columns) {
        length += columns;
    }

    /** Forgets every column from {@code columns} on (they are overwritten by the next write). */
    public void truncate(int columns) {
        if (columns < 0 || columns > length) {
            throw new IllegalArgumentException("cannot truncate a cache of " + length + " columns to " + columns);
        }
        length = columns;
    }

    /** Keeps only the given rows, in that order (sequences that finished are dropped between steps). */
    public void keepRows(int[] kept) {
        try (NDArray index = manager.create(kept)) {
            for (int l = 0; l < keys.length; l++) {
                keys[l] = replace(keys[l], keys[l].get(index));
                values[l] = replace(values[l], values[l].get(index));
            }
        }
        rows = kept.length;
    }

    /** Drops the first {@code columns} columns (left padding no row still needs). */
    public void dropLeft(int columns) {
        if (columns > 0) {
            resize(columns, roundUp(length - columns));
            length -= columns;
        }
    }

    /**
     * Appends the rows of {@code other} below this cache's rows, right-aligning both on the column clock: the
     * shorter side gets masked padding on its left. Returns how many columns each side was shifted right
     * ([this shift, other shift]).
     */
    public int[] appendRows(KvCache other) {
        int newLen = Math.max(length, other.length);
        int shiftThis = newLen - length;
        int shiftOther = newLen - other.length;
        int newCap = roundUp(newLen + 1);
        for (int l = 0; l < keys.length; l++) {
            keys[l] = replace(keys[l], stack(keys[l], length, shiftThis, other.keys[l], other.length, shiftOther, newCap));
            values[l] = replace(values[l], stack(values[l], length, shiftThis, other.values[l], other.length, shiftOther, newCap));
        }
        rows += other.rows;
        length = newLen;
        capacity = newCap;
        return new int[] {shiftThis, shiftOther};
    }

    private NDArray stack(NDArray a, int usedA, int shiftA, NDArray b, int usedB, int shiftB, int newCap) {
        try (NDList parts = new NDList(placed(a, 0, usedA, shiftA, newCap), placed(b, 0, usedB, shiftB, newCap))) {
            return NDArrays.concat(parts, 0);
        }
    }

    /** A zeroed array of {@code newCap} columns holding columns [from, to) of {@code a} starting at column {@code at}. */
    private NDArray placed(NDArray a, int from, int to, int at, int newCap) {
        long[] shape = a.getShape().getShape();
        shape[COLUMN_AXIS] = newCap;
        NDArray out = manager.zeros(new Shape(shape));
        if (to > from) {
            try (NDArray part = a.get(columns(from, to))) {
                out.set(columns(at, at + to - from), part);
            }
        }
        return out;
    }

    /** New arrays of {@code newCap} columns holding columns [from, length) of the old ones at column 0. */
    private void resize(int from, int newCap) {
        for (int l = 0; l < keys.length; l++) {
            if (keys[l] == null) {
                keys[l] = manager.zeros(new Shape(rows, config.nKvHeads(), newCap, config.headDim()));
                values[l] = manager.zeros(new Shape(rows, config.nKvHeads(), newCap, config.headDim()));
            } else {
                keys[l] = replace(keys[l], placed(keys[l], from, length, 0, newCap));
                values[l] = replace(values[l], placed(values[l], from, length, 0, newCap));
            }
        }
        capacity = newCap;
    }

    /** [:, :, from:to], built directly (no index-string parsing on the per-step path). */
    private static NDIndex columns(long from, long to) {
        return new NDIndex().addAllDim().addAllDim().addSliceDim(from, to);
    }

    private static NDArray replace(NDArray old, NDArray fresh) {
        old.close();
        return fresh;
    }

    private static int roundUp(int columns) {
        return Math.max(CHUNK, (columns + CHUNK - 1) / CHUNK * CHUNK);
    }

    @Override
    public void close() {
        manager.close();
    }
}
