package dev.toolcoach.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.engine.PtNDManager;
import ai.djl.pytorch.engine.PtSymbolBlock;
import ai.djl.pytorch.jni.IValueUtils;
import ai.djl.pytorch.jni.JniUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Fused operators PyTorch has and DJL 0.35.1's JNI does not expose, reached through a TorchScript module compiled
 * from {@link #SOURCE} on first use: DJL runs TorchScript, so this needs no native code of ours and works with any
 * libtorch DJL loads (2.5 or newer, for {@code enable_gqa}). The module holds no tensor: a method runs on its inputs'
 * device, in their type, and autograd records through it like through any op.
 *
 * <p>Scaled dot-product attention is the one used: PyTorch's flash kernel on the CPU (one call for every row and head,
 * where separate matmuls cost a BLAS call per row and head: at a decode step those are matrix-vector products, slow
 * per call) and flash or memory-efficient kernels on CUDA.
 */
public final class ScriptedOps {
    /** TorchScript source of the module, as {@code torch.jit.save} writes a scripted module's code. */
    static final String SOURCE = """
            class Ops(Module):
              __parameters__ = []
              __buffers__ = []
              training : bool
              def forward(self: __torch__.Ops,
                  q: Tensor,
                  k: Tensor,
                  v: Tensor,
                  mask: Tensor) -> Tensor:
                return torch.scaled_dot_product_attention(q, k, v, mask, enable_gqa=torch.ne(torch.size(q, 1), torch.size(k, 1)))
            """;

    /** The module object: a {@code __torch__.Ops} with {@code training = True}, pickled (protocol 2) as torch pickles it. */
    private static final byte[] DATA = pickledModule();

    private static volatile PtSymbolBlock module;

    private ScriptedOps() {
    }

    /**
     * softmax(q k^T / sqrt(hd) + mask) v: q [B, H, L, hd]; k, v [B, kvH, T, hd] with H a multiple of kvH (each kv head
     * serves H / kvH query heads, as grouped-query attention does); mask additive, broadcastable to [B, H, L, T], of q's
     * type. The result, [B, H, L, hd], lives in q's manager. Public for the {@code doctor} command, which checks it on the device.
     */
    public static NDArray attention(NDArray q, NDArray k, NDArray v, NDArray mask) {
        PtSymbolBlock m = module();
        if (!PLAIN_EXECUTOR.get()) {
            // the profiling graph executor would rewrite the one-op graph into its own differentiable graphs: nothing to
            // gain for one fused op, and its autodiff ran a training step 20% slower than ATen's autograd (per thread)
            JniUtils.setGraphExecutorOptimize(false);
            PLAIN_EXECUTOR.set(true);
        }
        // DJL runs a module's method with autograd off unless told it trains: tell it whether autograd is recording
        return IValueUtils.forward(m, new NDList(q, k, v, mask), JniUtils.isGradMode()).singletonOrThrow();
    }

    private static final ThreadLocal<Boolean> PLAIN_EXECUTOR = ThreadLocal.withInitial(() -> false);

    private static PtSymbolBlock module() {
        PtSymbolBlock m = module;
        if (m == null) {
            synchronized (ScriptedOps.class) {
                m = module;
                if (m == null) {
                    module = m = load();
                }
            }
        }
        return m;
    }

    /** Compiles the module from a TorchScript archive written to a temporary file; it lives as long as the JVM. */
    private static PtSymbolBlock load() {
        try {
            Path archive = Files.createTempFile("toolcoach-ops", ".pt");
            try {
                writeArchive(archive);
                NDManager owner = NDManager.newBaseManager(); // never closed: the module serves every thread until exit
                return JniUtils.loadModule((PtNDManager) owner, archive, false, new String[0], new String[0], false);
            } finally {
                Files.deleteIfExists(archive);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the TorchScript archive of the fused operators", e);
        }
    }

    /** A TorchScript archive (format version 3) holding the module object, its code and no constant. */
    static void writeArchive(Path file) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file))) {
            stored(zip, "ops/data.pkl", DATA);
            stored(zip, "ops/code/__torch__.py", SOURCE.getBytes(StandardCharsets.UTF_8));
            stored(zip, "ops/constants.pkl", new byte[] {(byte) 0x80, 2, ')', '.'}); // an empty tuple
            stored(zip, "ops/version", "3\n".getBytes(StandardCharsets.US_ASCII));
            stored(zip, "ops/byteorder", "little".getBytes(StandardCharsets.US_ASCII));
        }
    }

    private static void stored(ZipOutputStream zip, String name, byte[] data) throws IOException {
        ZipEntry e = new ZipEntry(name);
        e.setMethod(ZipEntry.STORED);
        e.setSize(data.length);
        CRC32 crc = new CRC32();
        crc.update(data);
        e.setCrc(crc.getValue());
        zip.putNextEntry(e);
        zip.write(data);
        zip.closeEntry();
    }

    /**
     * {@code c__torch__\nOps\n ) NEWOBJ {'training': True} BUILD STOP}: the global, an empty argument tuple, the new
     * object, its attribute dictionary, and BUILD setting it, with the memo puts torch's pickler writes.
     */
    private static byte[] pickledModule() {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(0x80); // PROTO 2
        out.write(2);
        out.writeBytes("c__torch__\nOps\n".getBytes(StandardCharsets.US_ASCII)); // GLOBAL
        out.writeBytes(new byte[] {'q', 0, ')', (byte) 0x81, '}', '('}); // BINPUT 0, EMPTY_TUPLE, NEWOBJ, EMPTY_DICT, MARK
        byte[] key = "training".getBytes(StandardCharsets.US_ASCII);
        out.write('X'); // BINUNICODE, 4-byte little-endian length
        out.writeBytes(new byte[] {(byte) key.length, 0, 0, 0});
        out.writeBytes(key);
        out.writeBytes(new byte[] {'q', 1, (byte) 0x88, 'u', 'b', 'q', 2, '.'}); // BINPUT 1, NEWTRUE, SETITEMS, BUILD, BINPUT 2, STOP
        return out.toByteArray();
    }
}
