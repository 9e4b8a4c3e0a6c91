package dev.toolcoach.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import dev.toolcoach.model.config.ModelConfig;

/**
 * Keys and values of every layer for a fixed number of slots, one sequence per slot: [slots, kvHeads, capacity,
 * headDim] per layer, in the model's compute type. A slot's columns start at 0 (position 0) and each forward writes
 * a row's new tokens at the columns after its own cached ones, so a sequence joining or leaving never moves another
 * slot's keys. Which slot holds what, and how many of its columns are valid, is the decoder's bookkeeping; this class
 * only stores. Capacity (columns per slot) grows in chunks, the one time every slot is copied.
 */
public final class KvSlots implements AutoCloseable {
    private static final int CHUNK = 64;

    private final ModelConfig config;
    private final NDManager manager;
    private final DataType dtype;
    private final int slots;
    private final NDArray[] keys;
    private final NDArray[] values;
    private NDManager generation;
    private int capacity;

    /** Slots whose keys and values are of {@code dtype}: the model's compute type ({@link Transformer#dtype()}). */
    public KvSlots(ModelConfig config, NDManager parent, int slots, DataType dtype) {
        if (slots <= 0) {
            throw new IllegalArgumentException("a KV cache needs at least one slot, got " + slots);
        }
        this.config = config;
        this.dtype = dtype;
        this.slots = slots;
        this.manager = parent.newSubManager();
        this.keys = new NDArray[config.nLayers()];
        this.values = new NDArray[config.nLayers()];
        allocate(CHUNK);
    }

    public int slots() {
        return slots;
    }

    /** Columns allocated per slot: the most tokens a slot holds before the next {@link #reserve} grows it. */
    public int capacity() {
        return capacity;
    }

    /** Bytes the keys and values take on the device now. */
    public long bytes() {
        return 2L * config.nLayers() * slots * config.kvDim() * capacity * dtype.getNumOfBytes();
    }

    /** Makes room for {@code columns} columns in every slot (a copy of every slot only when a chunk boundary is crossed). */
    public void reserve(int columns) {
        if (columns > capacity) {
            allocate(Math.max(CHUNK, (columns + CHUNK - 1) / CHUNK * CHUNK));
        }
    }

    /** Copies columns [0, columns) of slot {@code from} into slot {@code to} (a shared prompt, prefilled once). */
    public void copyPrefix(int from, int to, int columns) {
        if (from == to || columns == 0) {
            return;
        }
        if (columns < 0 || columns > capacity) {
            throw new IllegalArgumentException("cannot copy " + columns + " columns of a " + capacity + "-column slot");
        }
        NDIndex source = new NDIndex().addIndices(from).addAllDim().addSliceDim(0, columns);
        NDIndex target = new NDIndex().addIndices(to).addAllDim().addSliceDim(0, columns);
        try (NDManager scope = manager.newSubManager()) {
            for (int l = 0; l < keys.length; l++) {
                copy(keys[l], source, target, scope);
                copy(values[l], source, target, scope);
            }
        }
    }

    private static void copy(NDArray layer, NDIndex source, NDIndex target, NDManager scope) {
        NDArray part = layer.get(source);
        part.attach(scope);
        layer.set(target, part);
    }

    /**
     * One forward's access to the slots of its rows: index arrays made once (in {@code scope}) and used by every
     * layer. Rows whose slots are 0..B-1 in order read a view of the cache; others read a gathered copy of their rows.
     */
    Access open(StepInputs step, NDManager scope) {
        return new Access(step, scope);
    }

    final class Access {
        private final int rows;
        private final int keyColumns;
        private final NDIndex writeAt;
        private final NDIndex readAt;
        private final NDArray gather;

        private Access(StepInputs step, NDManager scope) {
            int[] slotOf = step.slots();
            this.rows = step.rows();
            this.keyColumns = step.keyColumns();
            if (step.writeColumnLimit() > capacity) {
                throw new IllegalStateException("the step writes up to column " + step.writeColumnLimit()
                        + " of a cache of " + capacity + ": reserve first");
            }
            int l = step.newTokens();
            long[] slotIds = new long[rows * l];
            long[] columns = new long[rows * l];
            for (int r = 0; r < rows; r++) {
                for (int i = 0; i < l; i++) {
                    slotIds[r * l + i] = slotOf[r];
                    columns[r * l + i] = step.writeColumns()[r * l + i];
                }
            }
            this.writeAt = new NDIndex("{}, :, {}", scope.create(slotIds), scope.create(columns));
            this.readAt = new NDIndex().addAllDim().addAllDim().addSliceDim(0, keyColumns);
            boolean leading = true;
            for (int r = 0; r < rows && leading; r++) {
                leading = slotOf[r] == r;
            }
            this.gather = leading ? null : scope.create(toLongs(slotOf));
        }

        /** Writes the step's new keys and values, [B, L, kvH, hd] each, at their rows' columns. */
        void write(int layer, NDArray k, NDArray v) {
            long n = k.getShape().get(0) * k.getShape().get(1);
            keys[layer].set(writeAt, k.reshape(n, config.nKvHeads(), config.headDim()));
            values[layer].set(writeAt, v.reshape(n, config.nKvHeads(), config.headDim()));
        }

        /** Keys [B, kvH, T, hd] of the step's rows (T = the step's key columns), in the step's scope. */
        NDArray keys(int layer, NDManager scope) {
            return read(keys[layer], scope);
        }

        NDArray values(int layer, NDManager scope) {
            return read(values[layer], scope);
        }

        private NDArray read(NDArray layer, NDManager scope) {
            // an op's result joins its receiver's manager (the cache's, which lives on): each is moved to the scope
            if (gather == null) {
                NDArray view = layer.get(new NDIndex().addSliceDim(0, rows).addAllDim().addSliceDim(0, keyColumns));
                view.attach(scope);
                return view;
            }
            NDArray columns = layer.get(readAt);
            columns.attach(scope);
            return columns.get(gather);
        }
    }

    private static long[] toLongs(int[] a) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i];
        }
        return out;
    }

    /** New arrays of {@code columns} columns holding the old ones' columns (the first allocation: zeros). */
    private void allocate(int columns) {
        NDManager next = manager.newSubManager();
        Shape shape = new Shape(slots, config.nKvHeads(), columns, config.headDim());
        NDIndex old = new NDIndex().addAllDim().addAllDim().addSliceDim(0, capacity);
        for (int l = 0; l < keys.length; l++) {
            keys[l] = grown(keys[l], next.zeros(shape, dtype), old);
            values[l] = grown(values[l], next.zeros(shape, dtype), old);
        }
        if (generation != null) {
            generation.close();
        }
        generation = next;
        capacity = columns;
    }

    private NDArray grown(NDArray old, NDArray fresh, NDIndex oldColumns) {
        if (old != null && capacity > 0) {
            fresh.set(oldColumns, old);
        }
        return fresh;
    }

    @Override
    public void close() {
        manager.close();
    }
}
