package dev.toolcoach.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/** A main-job run folder whose model, warm-up and first evaluations are done, reused by benchmarks of the training phase. */
public final class PreparedRun {

    private PreparedRun() {
    }

    /**
     * Copies the model ({@code init/}), the warmed-up model ({@code distilled/}) and the evaluations ({@code eval.json})
     * of the run in {@code from} to {@code to}, so the main job run on {@code to} goes straight to training.
     */
    public static void copy(Path from, Path to) throws IOException {
        for (String item : List.of("init", "distilled")) {
            Path source = from.resolve(item);
            try (Stream<Path> paths = Files.walk(source)) {
                for (Path p : paths.toList()) {
                    Path target = to.resolve(item).resolve(source.relativize(p).toString());
                    if (Files.isDirectory(p)) Files.createDirectories(target);
                    else Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        Files.copy(from.resolve("eval.json"), to.resolve("eval.json"), StandardCopyOption.REPLACE_EXISTING);
    }
}
