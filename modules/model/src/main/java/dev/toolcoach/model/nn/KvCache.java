package dev.toolcoach.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
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
    /** Holds the current arrays; replaced whenever they all are (see {@link #rebuild}). */
    private NDManager generation;
    private final DataType dtype;
    private final NDArray[] keys;
    private final NDArray[] values;
    private int rows;
    private int length;
    private int capacity;

    public KvCache(ModelConfig config, NDManager parent, int rows) {
        this(config, parent, rows, DataType.FLOAT32);
    }

    /** A cache whose keys and values are of {@code dtype}: the model's compute type ({@link Transformer#dtype()}). */
    public KvCache(ModelConfig config, NDManager parent, int rows, DataType dtype) {
        this.config = config;
        this.dtype = dtype;
        this.manager = parent.newSubManager();
        this.generation = manager.newSubManager();
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
        NDArray index = generation.create(kept);
        rebuild((layer, isKeys, old) -> old.get(index));
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
        rebuild((layer, isKeys, old) -> stack(old, length, shiftThis, (isKeys ? other.keys : other.values)[layer],
                other.length, shiftOther, newCap));
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
        NDArray out = generation.zeros(new Shape(shape), dtype);
        if (to > from) {
            try (NDArray part = a.get(columns(from, to))) {
                out.set(columns(at, at + to - from), part);
            }
        }
        return out;
    }

    /** New arrays of {@code newCap} columns holding columns [from, length) of the old ones at column 0. */
    private void resize(int from, int newCap) {
        if (keys[0] == null) {
            for (int l = 0; l < keys.length; l++) {
                keys[l] = generation.zeros(new Shape(rows, config.nKvHeads(), newCap, config.headDim()), dtype);
                values[l] = generation.zeros(new Shape(rows, config.nKvHeads(), newCap, config.headDim()), dtype);
            }
        } else {
            rebuild((layer, isKeys, old) -> placed(old, from, length, 0, newCap));
        }
        capacity = newCap;
    }

    /**
     * Replaces every layer's keys and values with {@code op} of them. The new arrays move to a fresh manager and
     * the old one closes: it takes the old arrays and the helper arrays DJL's indexing and concatenation leave in
     * their operands' manager, which would otherwise pile up for as long as the batch keeps decoding.
     */
    private void rebuild(LayerOp op) {
        NDManager next = manager.newSubManager();
        for (int l = 0; l < keys.length; l++) {
            NDArray k = op.apply(l, true, keys[l]);
            NDArray v = op.apply(l, false, values[l]);
            k.attach(next);
            v.attach(next);
            keys[l] = k;
            values[l] = v;
        }
        generation.close();
        generation = next;
    }

    /** The new keys ({@code isKeys}) or values of one layer from the old ones. */
    private interface LayerOp {
        NDArray apply(int layer, boolean isKeys, NDArray old);
    }

    private static NDIndex columns(long from, long to) {
        return new NDIndex().addAllDim().addAllDim().addSliceDim(from, to);
    }

    private static int roundUp(int columns) {
        return Math.max(CHUNK, (columns + CHUNK - 1) / CHUNK * CHUNK);
    }

    @Override
    public void close() {
        manager.close();
    }
}
