package dev.toolcoach.model;

import ai.djl.Device;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.nn.Transformer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The frozen base transformers of this JVM, one per checkpoint, device and type, shared by everyone who asks for the same
 * checkpoint: an embedded run's learner and its athletes' inference engine hold one copy of the weights, each with its
 * own LoRA adapter on top (the reference policy is the base without one). A base is freed when its last holder
 * releases it. The key includes the files' sizes and modification times, so a checkpoint rewritten in place is loaded
 * anew rather than served stale.
 */
final class SharedBases {
    private static final Map<Key, Entry> BASES = new HashMap<>();

    private record Key(Path path, String files, Device device, DataType dtype) {
    }

    private static final class Entry {
        final NDManager manager;
        final Transformer transformer;
        int holders;

        Entry(NDManager manager, Transformer transformer) {
            this.manager = manager;
            this.transformer = transformer;
        }
    }

    private SharedBases() {
    }

    /**
     * The shared base of {@code checkpoint} on {@code device} in {@code dtype}, loaded by {@code load} (into the manager it is given)
     * when no one holds it; every call must be matched by one {@link #release}.
     */
    static synchronized Transformer acquire(Path checkpoint, Device device, DataType dtype, Function<NDManager, Transformer> load) {
        Key key = key(checkpoint, device, dtype);
        Entry entry = BASES.get(key);
        if (entry == null) {
            NDManager manager = NDManager.newBaseManager(device);
            try {
                entry = new Entry(manager, load.apply(manager));
            } catch (RuntimeException e) {
                manager.close();
                throw e;
            }
            BASES.put(key, entry);
        }
        entry.holders++;
        return entry.transformer;
    }

    /** One holder of {@code transformer} is done with it; the last one frees it. */
    static synchronized void release(Transformer transformer) {
        for (Map.Entry<Key, Entry> e : BASES.entrySet()) {
            if (e.getValue().transformer == transformer) {
                if (--e.getValue().holders == 0) {
                    BASES.remove(e.getKey());
                    transformer.close();
                    e.getValue().manager.close();
                }
                return;
            }
        }
        throw new IllegalStateException("release of a base transformer that is not shared");
    }

    /** How many bases this JVM holds (for tests and metrics). */
    static synchronized int held() {
        return BASES.size();
    }

    private static Key key(Path checkpoint, Device device, DataType dtype) {
        try {
            Path real = checkpoint.toRealPath();
            StringBuilder files = new StringBuilder();
            try (Stream<Path> list = Files.isDirectory(real) ? Files.list(real).sorted() : Stream.of(real)) {
                for (Path f : (Iterable<Path>) list::iterator) {
                    if (Files.isRegularFile(f)) {
                        files.append(f.getFileName()).append(':').append(Files.size(f)).append(':')
                                .append(Files.getLastModifiedTime(f).toMillis()).append(';');
                    }
                }
            }
            return new Key(real, files.toString(), device, dtype);
        } catch (IOException e) {
            throw new ModelLoadException(checkpoint, "cannot read (" + e.getMessage() + ")", e);
        }
    }
}
