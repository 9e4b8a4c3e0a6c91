package dev.toolcoach.deploy;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The installed-PyTorch path end to end on this machine, with a pip CPU wheel standing in for a CUDA machine's torch
 * (it builds and loads the same way): a venv gets the wheel ({@code /opt/wheels/torch-*.whl}, or the system property
 * {@code toolcoach.torch.wheel}), {@code deploy/gpu/install-torch-jni.sh --quick} builds DJL's JNI from the vendored
 * source against it into a prefix under target/, and the real coach-node jar, with the script's torch.env sourced, runs
 * {@code doctor} in f32, bf16 and f16 and llama2.c's greedy reference text. Skipped, saying why, without the wheel, cmake
 * or a C++ compiler.
 *
 * <p>What is slow is made once per machine, as a user's machine makes it: the venv lives in the user's cache folder
 * ({@code $XDG_CACHE_HOME} or {@code ~/.cache}, {@code toolcoach/test-torch/<wheel>}), and the JNI in the script's own
 * build cache there, keyed by torch version, vendored source, build flags and compiler: a change to any of them builds
 * it again, so what the test runs is always what the script builds from this checkout.
 */
class InstalledTorchIT {

    private static final Pattern WHEEL_VERSION = Pattern.compile("torch-(\\d+\\.\\d+\\.\\d+)\\+cpu-.*\\.whl");

    private static final Path DEPLOY = DeployFiles.deployDir();
    private static final Path REPO = DEPLOY.getParent();
    private static final Path HOME = DEPLOY.resolve("target/installed-torch");
    private static final Path CACHE = Path.of(System.getenv().getOrDefault("XDG_CACHE_HOME", System.getProperty("user.home") + "/.cache"),
            "toolcoach");
    private static Path venv;
    private static Path envFile;
    private static String torchVersion;

    private record Result(int exitCode, String output) {
    }

    @BeforeAll
    static void installTheWheelAndBuildTheJni() throws IOException, InterruptedException {
        Path wheel = wheel();
        Assumptions.assumeTrue(wheel != null, "no PyTorch CPU wheel in /opt/wheels (or -Dtoolcoach.torch.wheel): installed-torch test skipped");
        Matcher m = WHEEL_VERSION.matcher(wheel.getFileName().toString());
        Assumptions.assumeTrue(m.matches(), wheel + " is not a CPU wheel of torch x.y.z: installed-torch test skipped");
        torchVersion = m.group(1);
        for (String tool : List.of("cmake", "g++", "python3")) {
            Assumptions.assumeTrue(run(List.of("bash", "-c", "command -v " + tool), 1).exitCode() == 0,
                    tool + " is not installed: installed-torch test skipped");
        }
        venv = venvWith(wheel);
        Result install = install(HOME.resolve("home"));
        assertEquals(0, install.exitCode(), install.output());
        envFile = HOME.resolve("home/torch.env");
        assertTrue(install.output().contains("(265 of 265 natives, nothing unresolved)"), install.output());
        assertTrue(Files.readString(envFile).contains("export PYTORCH_VERSION=" + torchVersion + " PYTORCH_FLAVOR=cpu"),
                Files.readString(envFile));
    }

    /** The wheel alone in a venv of the user's cache, made once (under a lock: other checkouts' tests share it). */
    private static Path venvWith(Path wheel) throws IOException, InterruptedException {
        Path dir = CACHE.resolve("test-torch").resolve(wheel.getFileName().toString().replaceFirst("\\.whl$", ""));
        Path venv = dir.resolve("venv");
        Files.createDirectories(dir);
        try (FileChannel lock = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = lock.lock()) {
            if (!Files.exists(venv.resolve("torch-installed"))) {
                Result made = run(List.of("python3", "-m", "venv", "--clear", venv.toString()), 2);
                Assumptions.assumeTrue(made.exitCode() == 0, "python3 cannot make a venv (" + made.output().strip() + "): skipped");
                // the wheel alone: torch's Python dependencies are not needed to build against it or to load its libraries
                Result pip = run(List.of(venv.resolve("bin/pip").toString(), "install", "-q", "--no-index", "--no-deps", wheel.toString()), 5);
                assertEquals(0, pip.exitCode(), pip.output());
                Files.writeString(venv.resolve("torch-installed"), wheel.toString());
            }
        }
        return venv;
    }

    private static Result install(Path prefix) throws IOException, InterruptedException {
        return run(List.of("bash", DEPLOY.resolve("gpu/install-torch-jni.sh").toString(), "--python", venv.resolve("bin/python").toString(),
                "--prefix", prefix.toString(), "--quick"), 20);
    }

    @Test
    void anotherPrefixReusesTheJniBuiltForThisTorchAndSource() throws IOException, InterruptedException {
        Path second = HOME.resolve("second");
        Result again = install(second);
        assertEquals(0, again.exitCode(), again.output());
        assertTrue(again.output().contains("install-torch-jni: reusing the JNI built before for this torch, source and flags: "), again.output());
        assertTrue(again.output().contains("(265 of 265 natives, nothing unresolved)"), again.output());
        Path jni = Path.of("cache/pytorch/" + torchVersion + "-cpu-linux-x86_64/0.35.1-libdjl_torch.so");
        assertEquals(-1L, Files.mismatch(HOME.resolve("home").resolve(jni), second.resolve(jni)));
        assertTrue(Files.readString(second.resolve("torch.env")).contains("export ENGINE_CACHE_DIR=" + second.resolve("cache")),
                Files.readString(second.resolve("torch.env")));
    }

    @Test
    void doctorFindsTheInstalledTorchAndToolCoachsJni() throws IOException, InterruptedException {
        Result doctor = coachNode("doctor");
        assertEquals(0, doctor.exitCode(), doctor.output());
        assertTrue(doctor.output().contains("engine           PyTorch " + torchVersion + " through DJL "), doctor.output());
        assertTrue(doctor.output().contains("(ToolCoach's build of deploy/gpu/djl-jni, features bf16,cast-gradient"), doctor.output());
        assertTrue(doctor.output().contains("device           cpu, precision f32 (auto: the default on this device)"), doctor.output());
        // the engine's prefill and scoring attention: a TorchScript module this torch must load and run
        assertTrue(doctor.output().lines().anyMatch(l -> l.startsWith("fused attention  ") && l.endsWith("(ok)")), doctor.output());
        assertTrue(lastLine(doctor).startsWith("verdict: ok: ToolCoach computes on cpu in f32 with PyTorch " + torchVersion
                + " (installed torch, ToolCoach's JNI)"), doctor.output());
    }

    @Test
    void bf16AndF16BasesTrainAnAdapterThroughToolCoachsJni() throws IOException, InterruptedException {
        for (String precision : List.of("bf16", "f16")) {
            Result doctor = coachNode("doctor", "--precision", precision);
            assertEquals(0, doctor.exitCode(), doctor.output());
            assertTrue(doctor.output().lines().anyMatch(l -> l.startsWith(precision + " base ") && l.endsWith("(ok)")), doctor.output());
            assertTrue(lastLine(doctor).startsWith("verdict: ok: ToolCoach computes on cpu in " + precision), doctor.output());
        }
    }

    @Test
    void llama2csReferenceTextComesOutOfTheInstalledTorch() throws IOException, InterruptedException {
        Path models = REPO.resolve("../shared/data/models").normalize();
        Assumptions.assumeTrue(Files.isRegularFile(models.resolve("stories260K.bin")), "shared data absent at " + models + ": skipped");
        Result generated = coachNode("generate", "--model", models.resolve("stories260K.bin").toString(), "--tokenizer",
                models.resolve("tok512.bin").toString(), "--temperature", "0", "--steps", "200");
        assertEquals(0, generated.exitCode(), generated.output());
        assertTrue(generated.output().contains(Files.readString(models.resolve("stories260K.greedy200.expected.txt"))), generated.output());
    }

    /** The coach-node jar with torch.env sourced first, as a user of the installed torch runs it. */
    private static Result coachNode(String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("bash", "-c", "source \"$1\" && shift && exec java -jar \"$@\"", "bash", envFile.toString(),
                REPO.resolve("coach-node/target/coach-node.jar").toString()));
        argv.addAll(List.of(args));
        return run(argv, 5);
    }

    private static String lastLine(Result r) {
        List<String> lines = r.output().lines().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    private static Path wheel() throws IOException {
        String given = System.getProperty("toolcoach.torch.wheel");
        if (given != null) {
            return Files.isRegularFile(Path.of(given)) ? Path.of(given) : null;
        }
        Path dir = Path.of("/opt/wheels");
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try (DirectoryStream<Path> wheels = Files.newDirectoryStream(dir, "torch-*+cpu-*.whl")) {
            for (Path p : wheels) {
                return p;
            }
        }
        return null;
    }

    /** Runs a command (stderr into the output) and waits for it at most {@code minutes}. */
    private static Result run(List<String> command, int minutes) throws IOException, InterruptedException {
        Files.createDirectories(HOME);
        Path log = Files.createTempFile(HOME, "command", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().put("DJL_OFFLINE", "true");
        builder.environment().put("OPT_OUT_TRACKING", "true");
        Process process = builder.start();
        try {
            if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in " + minutes + " minutes: "
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.delete(log);
        }
    }
}
