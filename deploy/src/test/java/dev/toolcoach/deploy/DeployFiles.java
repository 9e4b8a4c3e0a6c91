package dev.toolcoach.deploy;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the deploy folder whether tests run from the module or from the repository root. */
final class DeployFiles {

    private DeployFiles() {
    }

    static Path deployDir() {
        Path here = Path.of("").toAbsolutePath();
        for (Path candidate : new Path[]{here, here.resolve("deploy")}) {
            if (Files.isDirectory(candidate.resolve("k8s")) && Files.isDirectory(candidate.resolve("local"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("deploy folder not found from " + here);
    }
}
