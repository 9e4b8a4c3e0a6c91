package dev.toolcoach.model;

import ai.djl.Device;
import ai.djl.ndarray.NDManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The device setting: its names, its one-line refusals, and a model loaded where it says (the CPU here). */
class ComputeDeviceTest {

    @Test
    void namesMapToDjlDevices() {
        assertEquals(Device.cpu(), ComputeDevice.parse("cpu"));
        assertEquals(Device.cpu(), ComputeDevice.parse(" CPU "));
        assertEquals(Device.gpu(0), ComputeDevice.parse("cuda"));
        assertEquals(Device.gpu(0), ComputeDevice.parse("cuda:0"));
        assertEquals(Device.gpu(3), ComputeDevice.parse("cuda:3"));
    }

    @Test
    void unknownNamesAreRefusedNamingTheValue() {
        for (String bad : List.of("gpu", "cpu:1", "cuda:", "cuda:x", "tpu", "", "cuda:-1")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ComputeDevice.parse(bad), bad);
            assertEquals("unknown device '" + bad + "' (use cpu, cuda or cuda:N)", e.getMessage());
        }
    }

    @Test
    void aGpuThisMachineDoesNotHaveIsRefusedInOneLine() {
        int gpus = ai.djl.engine.Engine.getEngine("PyTorch").getGpuCount();
        String missing = "cuda:" + gpus;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ComputeDevice.choose(missing, "auto"));
        assertTrue(e.getMessage().startsWith("device '" + missing + "' is not available: PyTorch sees " + gpus + " CUDA device(s)"),
                e.getMessage());
        assertTrue(!e.getMessage().contains("\n"));
    }

    /** auto is the device's default: f32 on the CPU, where 16-bit matmuls are slower. */
    @Test
    void theCpuChosenByNameComputesInF32UnlessToldOtherwise() {
        assertEquals(ComputeDevice.cpu(), ComputeDevice.choose("cpu", "auto"));
        assertEquals(ComputeDevice.cpu(), ComputeDevice.choose(" CPU ", "F32"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ComputeDevice.choose("cpu", "f8"));
        assertEquals("unknown precision 'f8' (use auto, f32, f16 or bf16)", e.getMessage());
        assertEquals("cpu f32", ComputeDevice.cpu().toString());
    }

    @Test
    void aModelLoadedUnderADeviceLivesThere(@TempDir Path dir) throws Exception {
        Path folder = TinyHfFolder.write(dir.resolve("tiny"), TestModels.tinyQwen2(), 7);
        try (NDManager root = ComputeDevice.choose("cpu", "auto").newManager();
             PolicyModel model = ModelLoader.load(folder, null, root)) {
            assertEquals(Device.cpu(), root.getDevice());
            assertEquals(Device.cpu(), model.transformer().device());
        }
    }
}
