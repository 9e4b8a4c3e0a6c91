package dev.toolcoach.deploy;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * deploy/gpu's scripts as far as a machine without a GPU or transformers can check them: they parse (bash and Python:
 * the GPU run is the first place most of them run), and gpu-check.sh without its kit says so in one line, exit 2.
 * (The CPU rehearsal, {@code GPUCHECK_DEVICE=cpu GPUCHECK_SMALL=1}, runs them for real; InstalledTorchIT builds the JNI.)
 */
class GpuCheckScriptsTest {

    private final Path gpu = DeployFiles.deployDir().resolve("gpu");

    private record Result(int exitCode, String output) {
    }

    private static Result run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(1, TimeUnit.MINUTES), String.join(" ", command) + " did not finish");
        return new Result(process.exitValue(), output.strip());
    }

    private List<Path> files(String glob) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> found = Files.newDirectoryStream(gpu, glob)) {
            found.forEach(files::add);
        }
        assertFalse(files.isEmpty(), "no " + glob + " in " + gpu);
        return files;
    }

    @Test
    void everyShellScriptParses() throws IOException, InterruptedException {
        for (Path script : files("*.sh")) {
            Result parsed = run(List.of("bash", "-n", script.toString()), Map.of());
            assertEquals(0, parsed.exitCode(), script + ": " + parsed.output());
        }
    }

    @Test
    void everyPythonHelperCompiles(@TempDir Path cache) throws IOException, InterruptedException {
        Assumptions.assumeTrue(run(List.of("bash", "-c", "command -v python3"), Map.of()).exitCode() == 0, "no python3: skipped");
        List<String> command = new ArrayList<>(List.of("python3", "-m", "py_compile"));
        files("*.py").forEach(p -> command.add(p.toString()));
        Result compiled = run(command, Map.of("PYTHONPYCACHEPREFIX", cache.toString())); // no __pycache__ in the checkout
        assertEquals(0, compiled.exitCode(), compiled.output());
    }

    @Test
    void gpuCheckWithoutItsKitIsOneLine(@TempDir Path dir) throws IOException, InterruptedException {
        Path kit = dir.resolve("no-kit");
        Result r = run(List.of("bash", gpu.resolve("gpu-check.sh").toString()), Map.of("GPUCHECK_KIT", kit.toString(),
                "OUT", dir.resolve("out").toString(), "GPUCHECK_WORK", dir.resolve("work").toString()));
        assertEquals(2, r.exitCode(), r.output());
        assertEquals("gpu-check: no kit at " + kit + " (deploy/gpu/make-kit.sh)", r.output());
    }
}
