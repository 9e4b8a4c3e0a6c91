package dev.toolcoach.model;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.util.cuda.CudaUtils;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a model computes and in which type its frozen base does: {@code cpu} (the default), {@code cuda} or
 * {@code cuda:N}, with a {@link Precision}. A value, handed to whatever loads a model (the Brain, a job's spec, a node's
 * settings, a command's {@code --device}/{@code --precision}), never a process-wide setting: every model and learner
 * manager is made by {@link #newManager()}, so its tensors live on the device named. The choice is explicit even for
 * the CPU: DJL's own default would move to the first GPU on a CUDA build.
 *
 * @param device    DJL's device
 * @param precision the type a frozen base computes in (a base trained whole is f32 whatever this says)
 */
public record ComputeDevice(Device device, Precision precision) {

    /** The configuration key of nodes and commands (system property or HOCON). */
    public static final String CONFIG_KEY = "toolcoach.device";

    private static final Pattern NAME = Pattern.compile("(cpu|cuda)(?::(\\d{1,3}))?");

    public ComputeDevice {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(precision, "precision");
    }

    /** The CPU in f32: the default everywhere, and all this machine has. */
    public static ComputeDevice cpu() {
        return new ComputeDevice(Device.cpu(), Precision.F32);
    }

    /**
     * The device a name stands for, without asking the engine whether it exists.
     *
     * @throws IllegalArgumentException naming the value when it is not cpu, cuda or cuda:N
     */
    public static Device parse(String name) {
        Matcher m = NAME.matcher(name == null ? "" : name.trim().toLowerCase(Locale.ROOT));
        if (!m.matches() || (m.group(1).equals("cpu") && m.group(2) != null)) {
            throw new IllegalArgumentException("unknown device '" + name + "' (use cpu, cuda or cuda:N)");
        }
        if (m.group(1).equals("cpu")) return Device.cpu();
        return Device.gpu(m.group(2) == null ? 0 : Integer.parseInt(m.group(2)));
    }

    /**
     * The device and precision named, checked: the engine can compute on the device, and this process's JNI can train
     * under the precision ({@value Precision#AUTO}: the device's default, {@link Precision#defaultFor}).
     *
     * @throws IllegalArgumentException in one line, naming what is unknown or not available
     */
    public static ComputeDevice choose(String deviceName, String precisionName) {
        Device device = available(deviceName);
        return new ComputeDevice(device, precision(device, precisionName));
    }

    /**
     * The precision named on {@code device}, once this process's JNI can train under it; {@value Precision#AUTO}: the
     * device's default.
     *
     * @throws IllegalArgumentException in one line, naming what is unknown or not supported
     */
    public static Precision precision(Device device, String precisionName) {
        Optional<Precision> precision = Precision.parse(precisionName);
        Set<String> features = TorchRuntime.current().features();
        precision.ifPresent(p -> p.requireSupport(features));
        return precision.orElseGet(() -> Precision.defaultFor(device, features));
    }

    /**
     * The device named, once the engine says it exists.
     *
     * @throws IllegalArgumentException in one line, when the name is unknown or the device is not available
     */
    public static Device available(String name) {
        Device device = parse(name);
        useBuildFlavor();
        TorchRuntime.current().prepareCudaRuntime();
        if (device.isGpu()) {
            // without a CUDA runtime there is nothing to ask the engine (whose start would only add log lines)
            int gpus = CudaUtils.getGpuCount() == 0 ? 0 : Engine.getEngine("PyTorch").getGpuCount();
            if (device.getDeviceId() >= gpus) {
                throw new IllegalArgumentException("device '" + name.trim() + "' is not available: PyTorch sees "
                        + gpus + " CUDA device(s)" + (gpus == 0 ? " (a CPU build or no GPU: build with -Pcuda, or run"
                        + " deploy/gpu/install-torch-jni.sh for an installed CUDA PyTorch; `coach-node doctor` tells more)" : ""));
            }
        }
        return device;
    }

    /**
     * A CUDA build's jars carry no natives (-Pcuda): DJL is told which libtorch to fetch or find, before the engine
     * loads, unless the user named one (PYTORCH_FLAVOR as environment variable or system property). Where the CPU
     * natives are on the class path (every test run, -Pcuda too) they are used as they are.
     */
    private static void useBuildFlavor() {
        if (ComputeDevice.class.getClassLoader().getResource("native/lib/pytorch.properties") != null) return;
        Properties build = new Properties();
        try (InputStream in = ComputeDevice.class.getResourceAsStream("native-flavor.properties")) {
            if (in == null) return;
            build.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the build's native-flavor.properties", e);
        }
        String flavor = build.getProperty("pytorch.flavor", "cpu");
        if (flavor.equals("cpu") || System.getenv("PYTORCH_FLAVOR") != null || System.getProperty("PYTORCH_FLAVOR") != null) {
            return;
        }
        System.setProperty("PYTORCH_FLAVOR", flavor);
        if (System.getenv("PYTORCH_VERSION") == null && System.getProperty("PYTORCH_VERSION") == null) {
            System.setProperty("PYTORCH_VERSION", build.getProperty("pytorch.version"));
        }
    }

    /** A device's name as {@link #parse} reads it: {@code cpu} or {@code cuda:N}. */
    public static String name(Device device) {
        return device.isGpu() ? "cuda:" + device.getDeviceId() : "cpu";
    }

    /** This device's name, as {@link #parse} reads it. */
    public String name() {
        return name(device);
    }

    /** The type the frozen base's weights are loaded in. */
    public DataType dataType() {
        return precision.dataType();
    }

    /** A root manager on this device: models, adapters and learner state are made under one. */
    public NDManager newManager() {
        return NDManager.newBaseManager(device);
    }

    @Override
    public String toString() {
        return name() + " " + precision;
    }
}
