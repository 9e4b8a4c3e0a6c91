package dev.toolcoach.model.io;

import dev.toolcoach.model.config.ModelConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a family's checkpoint names its tensors, against the Llama layout of {@link HfNames} that the rest of the
 * module uses: the same for llama, qwen2, qwen3 and mistral; Phi-3 fuses q/k/v into {@code qkv_proj} (rows q | k | v)
 * and gate/up into {@code gate_up_proj} (rows gate | up), split here on load and fused again on save.
 */
public final class CheckpointLayout {
    private CheckpointLayout() {
    }

    /** Every tensor a checkpoint of this config must hold, with its shape, under the checkpoint's own names. */
    public static Map<String, long[]> shapes(ModelConfig c) {
        Map<String, long[]> canonical = HfNames.shapes(c);
        if (!c.family().fusedProjections()) {
            return canonical;
        }
        Map<String, long[]> s = new LinkedHashMap<>();
        for (Map.Entry<String, long[]> e : canonical.entrySet()) {
            String name = e.getKey();
            long d = c.dim();
            if (name.endsWith(".q_proj.weight")) {
                s.put(name.replace(".q_proj.", ".qkv_proj."), new long[] {c.qDim() + 2L * c.kvDim(), d});
            } else if (name.endsWith(".gate_proj.weight")) {
                s.put(name.replace(".gate_proj.", ".gate_up_proj."), new long[] {2L * c.hiddenDim(), d});
            } else if (!name.endsWith(".k_proj.weight") && !name.endsWith(".v_proj.weight") && !name.endsWith(".up_proj.weight")) {
                s.put(name, e.getValue());
            }
        }
        return s;
    }

    /** Checkpoint tensors (already checked against {@link #shapes}) in the {@link HfNames} layout; nothing is read. */
    public static Map<String, StoredTensor> toCanonical(ModelConfig c, Map<String, StoredTensor> checkpoint) {
        if (!c.family().fusedProjections()) {
            return checkpoint;
        }
        Map<String, StoredTensor> out = new LinkedHashMap<>();
        for (Map.Entry<String, StoredTensor> e : checkpoint.entrySet()) {
            String name = e.getKey();
            if (name.endsWith(".qkv_proj.weight")) {
                splitRows(out, e.getValue(), List.of(".q_proj.", ".k_proj.", ".v_proj."), ".qkv_proj.", c.qDim(), c.kvDim(), c.kvDim());
            } else if (name.endsWith(".gate_up_proj.weight")) {
                splitRows(out, e.getValue(), List.of(".gate_proj.", ".up_proj."), ".gate_up_proj.", c.hiddenDim(), c.hiddenDim());
            } else {
                out.put(name, e.getValue());
            }
        }
        return out;
    }

    /** {@link HfNames}-layout tensors under the checkpoint's own names, for writing a folder of this family. */
    public static Map<String, HostTensor> toCheckpoint(ModelConfig c, Map<String, HostTensor> canonical) {
        if (!c.family().fusedProjections()) {
            return canonical;
        }
        Map<String, HostTensor> out = new LinkedHashMap<>();
        for (Map.Entry<String, HostTensor> e : canonical.entrySet()) {
            String name = e.getKey();
            if (name.endsWith(".q_proj.weight")) {
                out.put(name.replace(".q_proj.", ".qkv_proj."), stackRows(e.getValue(),
                        canonical.get(name.replace(".q_proj.", ".k_proj.")), canonical.get(name.replace(".q_proj.", ".v_proj."))));
            } else if (name.endsWith(".gate_proj.weight")) {
                out.put(name.replace(".gate_proj.", ".gate_up_proj."), stackRows(e.getValue(),
                        canonical.get(name.replace(".gate_proj.", ".up_proj."))));
            } else if (!name.endsWith(".k_proj.weight") && !name.endsWith(".v_proj.weight") && !name.endsWith(".up_proj.weight")) {
                out.put(name, e.getValue());
            }
        }
        return out;
    }

    private static void splitRows(Map<String, StoredTensor> out, StoredTensor fused, List<String> parts, String fusedPart, int... rows) {
        long at = 0;
        for (int i = 0; i < rows.length; i++) {
            String name = fused.name().replace(fusedPart, parts.get(i));
            out.put(name, fused.rows(at, rows[i], name));
            at += rows[i];
        }
    }

    private static HostTensor stackRows(HostTensor... parts) {
        long rows = 0;
        int n = 0;
        for (HostTensor p : parts) {
            rows += p.shape()[0];
            n += p.data().length;
        }
        float[] out = new float[n];
        int at = 0;
        for (HostTensor p : parts) {
            System.arraycopy(p.data(), 0, out, at, p.data().length);
            at += p.data().length;
        }
        return new HostTensor(new long[] {rows, parts[0].shape()[1]}, out);
    }
}
