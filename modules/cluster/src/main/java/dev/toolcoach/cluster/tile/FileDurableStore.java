package dev.toolcoach.cluster.tile;

import akka.actor.AbstractActor;
import akka.actor.ActorSystem;
import akka.cluster.ddata.DurableStore;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializers;
import com.typesafe.config.Config;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * TILE's durable store for Akka Distributed Data (a {@code durable.store-actor-class}): each durable key's data in a
 * file of its own ({@code <key>.ddata}: magic, Akka serializer id, manifest, bytes, CRC32), replaced atomically and
 * synced on every store, read back at start. Akka's own LMDB store needs {@code --add-opens} on Java 17; this one needs
 * nothing. {@link #check} reads a folder through before the replicator starts, so a damaged file is one clear error.
 */
public final class FileDurableStore extends AbstractActor {
    private static final int MAGIC = 0x54494c45; // "TILE"
    static final String SUFFIX = ".ddata";

    private final Path dir;
    private final Serialization serialization;

    public FileDurableStore(Config config) {
        this.dir = Path.of(config.getString("file.dir"));
        this.serialization = SerializationExtension.get(getContext().getSystem());
    }

    @Override
    public Receive createReceive() {
        return receiveBuilder()
                .matchEquals(DurableStore.LoadAll$.MODULE$, m -> load())
                .match(DurableStore.Store.class, this::store)
                .build();
    }

    private void load() {
        scala.collection.immutable.Map<String, DurableStore.DurableDataEnvelope> data = scala.collection.immutable.Map$.MODULE$.empty();
        try {
            data = readAll(dir, serialization);
        } catch (IllegalStateException e) {
            throw new DurableStore.LoadFailed(e.getMessage(), e);
        }
        if (!data.isEmpty()) getSender().tell(new DurableStore.LoadData(data), getSelf());
        getSender().tell(DurableStore.LoadAllCompleted$.MODULE$, getSelf());
    }

    private void store(DurableStore.Store store) {
        try {
            write(dir.resolve(store.key() + SUFFIX), store.data());
            if (store.reply().isDefined()) store.reply().get().replyTo().tell(store.reply().get().successMsg(), getSelf());
        } catch (RuntimeException | IOException e) {
            getContext().getSystem().log().error("TILE durable store: cannot write {}: {}", store.key(), e.toString());
            if (store.reply().isDefined()) store.reply().get().replyTo().tell(store.reply().get().failureMsg(), getSelf());
        }
    }

    private void write(Path file, DurableStore.DurableDataEnvelope envelope) throws IOException {
        byte[] bytes = serialization.serialize(envelope).get();
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(bytes.length + 64);
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeInt(MAGIC);
            out.writeInt(serialization.findSerializerFor(envelope).identifier());
            out.writeUTF(Serializers.manifestFor(serialization.findSerializerFor(envelope), envelope));
            out.writeInt(bytes.length);
            out.write(bytes);
            CRC32 crc = new CRC32();
            crc.update(bytes);
            out.writeLong(crc.getValue());
        }
        Files.createDirectories(dir);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, buffer.toByteArray());
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Reads a folder through: @throws IllegalStateException naming the folder and file when one cannot be read. */
    static void check(ActorSystem system, Path dir) {
        readAll(dir, SerializationExtension.get(system));
    }

    private static scala.collection.immutable.Map<String, DurableStore.DurableDataEnvelope> readAll(Path dir, Serialization serialization) {
        scala.collection.immutable.Map<String, DurableStore.DurableDataEnvelope> data = scala.collection.immutable.Map$.MODULE$.empty();
        if (!Files.isDirectory(dir)) return data;
        try (var files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(SUFFIX)).sorted().toList()) {
                String name = file.getFileName().toString();
                data = data.updated(name.substring(0, name.length() - SUFFIX.length()), read(file, serialization));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("TILE durable store " + dir + " cannot be listed: " + e.getMessage(), e);
        }
        return data;
    }

    private static DurableStore.DurableDataEnvelope read(Path file, Serialization serialization) {
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            if (in.readInt() != MAGIC) throw new IOException("not a TILE durable store file");
            int serializer = in.readInt();
            String manifest = in.readUTF();
            int length = in.readInt();
            if (length < 0 || length > Files.size(file)) throw new IOException("bad length " + length);
            byte[] bytes = in.readNBytes(length);
            if (bytes.length != length) throw new IOException("truncated");
            CRC32 crc = new CRC32();
            crc.update(bytes);
            if (in.readLong() != crc.getValue()) throw new IOException("checksum mismatch");
            return (DurableStore.DurableDataEnvelope) serialization.deserialize(bytes, serializer, manifest).get();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("TILE durable store " + file + " cannot be read (" + e.getMessage()
                    + "); move it away to start from the prior", e);
        }
    }
}
