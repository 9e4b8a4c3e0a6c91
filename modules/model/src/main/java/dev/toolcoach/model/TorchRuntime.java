package dev.toolcoach.model;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.engine.EngineException;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.util.Utils;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which PyTorch and which JNI library DJL runs on in this process, and what that JNI can do. DJL loads its own
 * (the natives in the jar, or a download) unless {@code PYTORCH_LIBRARY_PATH} names an installed torch, as the
 * environment file of {@code deploy/gpu/install-torch-jni.sh} does; that script builds DJL's JNI from the vendored
 * source ({@code deploy/gpu/djl-jni}) and leaves a marker beside it ({@value #MARKER_SUFFIX}) listing what the build
 * can do beyond DJL's own: {@value #BF16} (DJL 0.35.1's JNI aborts the JVM on a bf16 tensor) and
 * {@value #CAST_GRADIENT} (its casts drop autograd history). Read from files and the environment only: nothing here
 * loads the engine except {@link #castsCarryGradient()}.
 */
public final class TorchRuntime {

    /** The marker the install script writes beside the JNI it built ({@code <jni>.toolcoach.properties}). */
    public static final String MARKER_SUFFIX = ".toolcoach.properties";
    /** The JNI maps DJL's BFLOAT16 to torch's bfloat16. */
    public static final String BF16 = "bf16";
    /** The JNI's casts ({@code toType}) keep autograd history. */
    public static final String CAST_GRADIENT = "cast-gradient";

    private static volatile Boolean castsCarryGradient;

    private final Map<String, String> env;

    TorchRuntime(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    /** This process's view (its environment and system properties). */
    public static TorchRuntime current() {
        return new TorchRuntime(System.getenv());
    }

    /** {@code PYTORCH_LIBRARY_PATH}: the installed torch's library folder DJL loads instead of its own. */
    public Optional<Path> installedLibraries() {
        return Optional.ofNullable(env.get("PYTORCH_LIBRARY_PATH")).filter(s -> !s.isBlank()).map(Path::of);
    }

    /** A DJL setting that may be an environment variable or a system property (as DJL's own lookup). */
    public Optional<String> setting(String name) {
        return Optional.ofNullable(env.get(name)).or(() -> Optional.ofNullable(System.getProperty(name))).filter(s -> !s.isBlank());
    }

    /**
     * The JNI library DJL 0.35.1's {@code LibUtils} loads for an installed torch: {@code <djl>-libdjl_torch.so} or
     * {@code libdjl_torch.so} in the torch's library folder, else {@code <djl>-libdjl_torch.so} under
     * {@code ENGINE_CACHE_DIR/pytorch/<PYTORCH_VERSION>-<PYTORCH_FLAVOR>-linux-x86_64}; empty without an installed torch
     * or where none of these exists.
     */
    public Optional<Path> installedJni() {
        Optional<Path> lib = installedLibraries();
        if (lib.isEmpty()) {
            return Optional.empty();
        }
        String name = Engine.getDjlVersion() + "-libdjl_torch.so";
        for (Path p : new Path[] {lib.get().resolve(name), lib.get().resolve("libdjl_torch.so")}) {
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        Optional<String> version = setting("PYTORCH_VERSION");
        Optional<String> flavor = setting("PYTORCH_FLAVOR");
        if (version.isEmpty() || flavor.isEmpty()) {
            return Optional.empty();
        }
        Path cache = setting("ENGINE_CACHE_DIR").map(Path::of).orElseGet(Utils::getEngineCacheDir);
        Path p = cache.resolve("pytorch").resolve(version.get() + "-" + flavor.get() + "-linux-x86_64").resolve(name);
        return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
    }

    /** What the installed JNI's marker lists ({@link #BF16}, {@link #CAST_GRADIENT}); empty for DJL's own JNI. */
    public Set<String> features() {
        return marker().map(p -> Arrays.stream(p.getProperty("features", "").split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).collect(Collectors.toUnmodifiableSet())).orElse(Set.of());
    }

    /** The install script's marker beside the installed JNI, if there is one. */
    public Optional<Properties> marker() {
        return installedJni().map(jni -> jni.resolveSibling(jni.getFileName() + MARKER_SUFFIX)).filter(Files::isRegularFile).map(p -> {
            Properties props = new Properties();
            try (InputStream in = Files.newInputStream(p)) {
                props.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + p, e);
            }
            return props;
        });
    }

    /**
     * The folder holding the {@code libcudart.so} DJL's GPU count should load through JNA ({@code TOOLCOACH_CUDART_DIR},
     * written by the install script for a CUDA torch), handed to JNA unless {@code jna.library.path} is set already.
     * Called before anything asks DJL's {@code CudaUtils}.
     */
    public void prepareCudaRuntime() {
        String dir = env.get("TOOLCOACH_CUDART_DIR");
        if (dir != null && !dir.isBlank() && System.getProperty("jna.library.path") == null) {
            System.setProperty("jna.library.path", dir);
        }
    }

    /**
     * Whether a cast keeps autograd history in the JNI this process runs on, asked once of the engine (loading it): an
     * f32 array that requires a gradient is cast to f16 and back, and the result is differentiated. DJL 0.35.1's JNI
     * casts under {@code NoGradGuard}, so the result has no history (the backward fails) and an adapter trained over a
     * 16-bit base would get no gradient through it. Runs its own backward, never a {@code GradientCollector} (of which
     * DJL allows one at a time: this is asked from inside a training step).
     */
    public static boolean castsCarryGradient() {
        Boolean known = castsCarryGradient;
        if (known == null) {
            Engine.getEngine("PyTorch");
            boolean gradMode = JniUtils.isGradMode(); // grad mode is per thread: asked with it on, as in training
            JniUtils.setGradMode(true);
            try (NDManager m = NDManager.newBaseManager(Device.cpu())) {
                NDArray x = m.create(new float[] {1f});
                x.setRequiresGradient(true);
                NDArray y = x.toType(DataType.FLOAT16, false).toType(DataType.FLOAT32, false).sum();
                try {
                    JniUtils.backward((PtNDArray) y, (PtNDArray) m.ones(y.getShape()), false, false);
                    known = x.getGradient().getFloat() == 1f;
                } catch (EngineException e) { // "does not require grad and does not have a grad_fn"
                    known = false;
                }
            } finally {
                JniUtils.setGradMode(gradMode);
            }
            castsCarryGradient = known;
        }
        return known;
    }
}
