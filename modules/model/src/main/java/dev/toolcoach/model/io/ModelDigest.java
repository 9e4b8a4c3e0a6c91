package dev.toolcoach.model.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A fingerprint of what a model folder computes and how it reads text: SHA-256 over the name, size and bytes of its
 * config, weights, tokenizer and chat template files, in name order (a README or other file beside them does not
 * count). Two nodes that resolve a job's model path prove they hold the same model by it before one serves the job.
 * Reading every weight byte costs about a second per GB; a process takes it once per folder, again only when a file's
 * size or modification time changed.
 */
public final class ModelDigest {

    private static final Set<String> NAMED = Set.of("config.json", "generation_config.json", "tokenizer.json",
            "tokenizer_config.json", "tokenizer.model", "vocab.json", "merges.txt", "special_tokens_map.json",
            "added_tokens.json", "chat_template.jinja", "chat_template.json");

    private ModelDigest() {
    }

    /**
     * The folder's digest, as hex.
     *
     * @throws UncheckedIOException when the folder or one of its files cannot be read
     */
    public static String of(Path folder) {
        List<Path> files = files(folder);
        // the coach and athletes of an embedded job share one JVM: the folder is read once while its files stay as they were
        return TAKEN.computeIfAbsent(new Key(folder.toAbsolutePath().normalize(), stamps(files)), key -> digest(files));
    }

    /** A folder as its files stood: name, size and modification time of each. */
    private record Key(Path folder, List<String> stamps) {
    }

    private static final Map<Key, String> TAKEN = new ConcurrentHashMap<>();

    private static List<String> stamps(List<Path> files) {
        List<String> stamps = new ArrayList<>(files.size());
        for (Path f : files) {
            try {
                stamps.add(f.getFileName() + " " + Files.size(f) + " " + Files.getLastModifiedTime(f).toMillis());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + f + " to fingerprint the model", e);
            }
        }
        return stamps;
    }

    private static String digest(List<Path> files) {
        MessageDigest sha = sha256();
        byte[] buffer = new byte[1 << 20];
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                sha.update((file.getFileName() + "\n" + Files.size(file) + "\n").getBytes(StandardCharsets.UTF_8));
                for (int n; (n = in.read(buffer)) > 0; ) sha.update(buffer, 0, n);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + " to fingerprint the model", e);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** The files that count, in name order. */
    static List<Path> files(Path folder) {
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.filter(Files::isRegularFile).filter(f -> counts(f.getFileName().toString())).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the model folder " + folder, e);
        }
    }

    private static boolean counts(String name) {
        return NAMED.contains(name) || name.endsWith(".safetensors") || name.endsWith(".safetensors.index.json");
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
