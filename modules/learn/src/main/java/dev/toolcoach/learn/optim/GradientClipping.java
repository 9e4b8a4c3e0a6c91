package dev.toolcoach.learn.optim;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;

import java.util.List;

/** Global-norm gradient clipping, as torch.nn.utils.clip_grad_norm_. */
public final class GradientClipping {
    private GradientClipping() {
    }

    /**
     * Scales all gradients so their joint L2 norm is at most {@code maxNorm}.
     *
     * @return the norm before clipping (may be NaN or infinite: the caller then skips the update)
     */
    public static double clipGlobalNorm(List<TrainableParameter> parameters, double maxNorm, NDManager parent) {
        try (NDManager scope = parent.newSubManager()) {
            NDList squares = new NDList();
            NDList grads = new NDList();
            for (TrainableParameter p : parameters) {
                NDArray g = p.value().getGradient();
                scope.attachAll(g);
                grads.add(g);
                NDArray sq = g.square().sum();
                scope.attachAll(sq);
                squares.add(sq);
            }
            NDArray total = NDArrays.stack(squares).sum();
            scope.attachAll(total);
            double norm = Math.sqrt(total.toType(DataType.FLOAT64, false).getDouble());
            if (Double.isFinite(norm) && norm > maxNorm) {
                double scale = maxNorm / (norm + 1e-6);
                for (NDArray g : grads) {
                    g.muli(scale);
                }
            }
            return norm;
        }
    }

    /**
     * Sets every gradient to zero before the next accumulation (PyTorch accumulates across backward
     * calls). A fill, not g - g or g * 0, so a NaN gradient from a skipped update does not survive.
     */
    public static void zeroGradients(List<TrainableParameter> parameters) {
        for (TrainableParameter p : parameters) {
            try (NDArray g = p.value().getGradient()) {
                g.set(new NDIndex("..."), 0f);
            }
        }
    }
}
