package dev.toolcoach.deploy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * deploy/gpu/install-torch-jni.sh's contract without building anything: it names the JNI after the DJL version the
 * project builds with, and refuses a bad command line or a folder that is not a torch in one line, exit 2.
 * (InstalledTorchIT builds and runs it.)
 */
class InstallTorchJniScriptTest {

    private final Path script = DeployFiles.deployDir().resolve("gpu/install-torch-jni.sh");

    private record Result(int exitCode, String output) {
    }

    private Result script(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(1, TimeUnit.MINUTES), "install-torch-jni.sh did not finish");
        return new Result(process.exitValue(), output.strip());
    }

    @Test
    void theJniIsNamedAfterTheDjlVersionOfThePom() throws IOException {
        Matcher pom = Pattern.compile("<djl\\.version>([^<]+)</djl\\.version>").matcher(Files.readString(
                DeployFiles.deployDir().getParent().resolve("pom.xml")));
        assertTrue(pom.find());
        Matcher sh = Pattern.compile("(?m)^DJL_VERSION=(\\S+)").matcher(Files.readString(script));
        assertTrue(sh.find());
        assertEquals(pom.group(1), sh.group(1));
    }

    @Test
    void aBadCommandLineOrAFolderThatIsNotATorchIsOneLine(@TempDir Path dir) throws IOException, InterruptedException {
        Result jobs = script("--jobs", "0");
        assertEquals(2, jobs.exitCode());
        assertEquals("install-torch-jni: --jobs needs a positive number, got '0'", jobs.output());
        Result option = script("--cuda");
        assertEquals(2, option.exitCode());
        assertEquals("install-torch-jni: unknown option '--cuda' (see --help)", option.output());
        Result missing = script("--torch", dir.resolve("none").toString(), "--prefix", dir.resolve("p").toString());
        assertEquals(2, missing.exitCode());
        assertEquals("install-torch-jni: --torch: no folder '" + dir.resolve("none") + "'", missing.output());
        Result empty = script("--torch", dir.toString(), "--prefix", dir.resolve("p").toString());
        assertEquals(2, empty.exitCode());
        assertEquals("install-torch-jni: " + dir + " is not a torch folder: no lib/libtorch.so", empty.output());
        Files.createDirectories(dir.resolve("t/lib"));
        Files.createDirectories(dir.resolve("t/include/torch"));
        Files.writeString(dir.resolve("t/lib/libtorch.so"), "");
        Result unversioned = script("--torch", dir.resolve("t").toString(), "--prefix", dir.resolve("p").toString());
        assertEquals(2, unversioned.exitCode());
        assertEquals("install-torch-jni: " + dir.resolve("t") + " has neither version.py (pip) nor build-version (libtorch): cannot tell "
                + "its version", unversioned.output());
    }
}
