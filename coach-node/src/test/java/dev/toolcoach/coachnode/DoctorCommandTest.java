package dev.toolcoach.coachnode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcoach.model.TorchRuntime;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code doctor} on DJL's own natives (the test JVM's): what it found, a matmul and the fused attention checked, one
 * verdict line; a device or a precision it cannot use is a FAILED verdict with the reason and exit 1, never a usage
 * error. (On an installed torch with ToolCoach's JNI: InstalledTorchIT in the deploy module.)
 */
class DoctorCommandTest {

    private static String lastLine(CliRun run) {
        List<String> lines = run.out.toString().lines().filter(l -> !l.isBlank()).toList();
        return lines.get(lines.size() - 1);
    }

    @Test
    void theCpuWithDjlsOwnNativesIsOk() {
        Assumptions.assumeTrue(TorchRuntime.current().installedLibraries().isEmpty(), "this JVM runs on an installed torch");
        CliRun run = new CliRun();
        assertEquals(0, run.execute("doctor", "--device", "cpu"), run.err.toString());
        String out = run.out.toString();
        assertTrue(out.contains("installed torch  none (DJL's own libtorch"), out);
        assertTrue(out.contains("jni              DJL's own (0.35.1; no bf16, casts drop the gradient)"), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("matmul ") && l.endsWith("(ok)")), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("fused attention  scaled dot-product (TorchScript)") && l.endsWith("(ok)")), out);
        assertTrue(lastLine(run).startsWith("verdict: ok: ToolCoach computes on cpu in f32 with PyTorch 2.7.1 (DJL's own natives)"), out);
    }

    @Test
    void aPrecisionOrDeviceItCannotUseIsAFailedVerdictWithTheReason() {
        Assumptions.assumeTrue(TorchRuntime.current().features().isEmpty(), "this JVM runs on ToolCoach's JNI build, which has bf16");
        CliRun bf16 = new CliRun();
        assertEquals(1, bf16.execute("doctor", "--precision", "bf16"), bf16.err.toString());
        assertTrue(lastLine(bf16).startsWith("verdict: FAILED: precision 'bf16' needs ToolCoach's build of DJL's JNI"), bf16.out.toString());
        CliRun gpu = new CliRun();
        assertEquals(1, gpu.execute("doctor", "--device", "cuda:7"), gpu.err.toString());
        assertTrue(lastLine(gpu).startsWith("verdict: FAILED: device 'cuda:7' is not available: PyTorch sees "), gpu.out.toString());
    }
}
