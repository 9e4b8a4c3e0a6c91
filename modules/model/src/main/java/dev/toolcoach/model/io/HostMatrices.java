package dev.toolcoach.model.io;

import java.util.ArrayList;
import java.util.List;

/**
 * Layout changes between files and the device, done once on the host: files hold projections as [out, in]
 * (PyTorch's Linear), the device holds them as [in, out] so that {@code x.matMul(w)} applies them, with several
 * projections side by side when they are fused.
 */
public final class HostMatrices {
    private HostMatrices() {
    }

    /** [rows, cols] → [cols, rows]. */
    public static HostTensor transpose(HostTensor t) {
        int rows = (int) t.shape()[0];
        int cols = (int) t.shape()[1];
        float[] out = new float[rows * cols];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                out[c * rows + r] = t.data()[r * cols + c];
            }
        }
        return new HostTensor(new long[] {cols, rows}, out);
    }

    /** [out_i, in] matrices → one [in, sum out_i] matrix whose column blocks are the transposed inputs. */
    public static HostTensor fuseTransposed(HostTensor... ws) {
        int in = (int) ws[0].shape()[1];
        int total = 0;
        for (HostTensor w : ws) {
            total += (int) w.shape()[0];
        }
        float[] out = new float[in * total];
        int col0 = 0;
        for (HostTensor w : ws) {
            int rows = (int) w.shape()[0];
            for (int r = 0; r < rows; r++) {
                for (int i = 0; i < in; i++) {
                    out[i * total + col0 + r] = w.data()[r * in + i];
                }
            }
            col0 += rows;
        }
        return new HostTensor(new long[] {in, total}, out);
    }

    /** Inverse of {@link #fuseTransposed}: a [in, sum outs] matrix back to [out_i, in] matrices. */
    public static List<HostTensor> unfuseTransposed(HostTensor fused, long... outs) {
        int in = (int) fused.shape()[0];
        int total = (int) fused.shape()[1];
        List<HostTensor> result = new ArrayList<>();
        int col0 = 0;
        for (long rowsL : outs) {
            int rows = (int) rowsL;
            float[] out = new float[rows * in];
            for (int r = 0; r < rows; r++) {
                for (int i = 0; i < in; i++) {
                    out[r * in + i] = fused.data()[i * total + col0 + r];
                }
            }
            result.add(new HostTensor(new long[] {rows, in}, out));
            col0 += rows;
        }
        return result;
    }
}
