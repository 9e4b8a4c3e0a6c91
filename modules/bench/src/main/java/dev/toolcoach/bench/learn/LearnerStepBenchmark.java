package dev.toolcoach.bench.learn;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.toolcoach.learn.batch.BatchRow;
import dev.toolcoach.learn.batch.PaddedBatch;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.TrainingSequence;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.LoraWeights;
import dev.toolcoach.model.TokenScores;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;

import java.util.List;

/**
 * Learner throughput: one GRPO step (forward with LoRA, clipped loss, backward, clipping, AdamW) on a
 * 4-layer 256-dim Llama at 4 x 512 tokens, against a bare LoRA forward + backward of the same batch
 * (mean log-prob loss, nothing else). Prints tokens/s of both and the framework's overhead.
 *
 * <p>Run: {@code java -cp ... dev.toolcoach.bench.learn.LearnerStepBenchmark [rows] [tokens] [iterations]}
 */
public final class LearnerStepBenchmark {
    private LearnerStepBenchmark() {
    }

    public static void main(String[] args) {
        System.setProperty("DJL_OFFLINE", "true");
        System.setProperty("OPT_OUT_TRACKING", "true");
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int tokens = args.length > 1 ? Integer.parseInt(args[1]) : 512;
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        ModelConfig config = ModelConfig.llama(256, 768, 4, 8, 8, 512, tokens);
        try (NDManager manager = NDManager.newBaseManager()) {
            Transformer model = Transformer.create(config, ModelWeights.randomHf(config, 1), manager);
            LoraAdapter adapter = LoraAdapter.create(LoraConfig.defaults(), config, manager, 2);
            List<ScoredGroup> batch = List.of(SyntheticGroups.of(rows, tokens, config.vocabSize()));
            try (LearnerCore learner = new LearnerCore(model, new LoraWeights(adapter),
                    LearnerConfig.defaults(1e-4).withMicroBatchRows(rows))) {
                List<BatchRow> bareRows = batch.get(0).traces().stream()
                        .map(t -> new BatchRow(TrainingSequence.from(t.trace().rolloutId(), t.trace().tokens()), 0, 1)).toList();
                PaddedBatch padded = PaddedBatch.of(bareRows);
                // warm up both paths (JIT, allocator)
                learner.trainGrpo(batch);
                bare(model, adapter, padded, manager);
                double grpo = 0;
                double plain = 0;
                for (int i = 0; i < iterations; i++) { // interleaved, alternating order, so drift affects both alike
                    boolean grpoFirst = i % 2 == 0;
                    if (!grpoFirst) {
                        plain += timed(() -> bare(model, adapter, padded, manager));
                    }
                    grpo += timed(() -> learner.trainGrpo(batch));
                    if (grpoFirst) {
                        plain += timed(() -> bare(model, adapter, padded, manager));
                    }
                }
                double trained = (double) rows * (tokens - 1) * iterations;
                System.out.printf("model 4x256 (vocab 512, LoRA r=8 q/v), batch %d x %d, %d iterations, threads %s%n",
                        rows, tokens, iterations, System.getProperty("ai.djl.pytorch.num_threads", "default"));
                System.out.printf("GRPO step:            %.3f s/step  %.0f tokens/s%n", grpo / iterations, trained / grpo);
                System.out.printf("bare forward+backward: %.3f s/step  %.0f tokens/s%n", plain / iterations, trained / plain);
                System.out.printf("framework overhead:   %.1f %%%n", 100 * (grpo - plain) / plain);
            }
        }
    }

    private static double timed(Runnable r) {
        long t0 = System.nanoTime();
        r.run();
        return (System.nanoTime() - t0) / 1e9;
    }

    private static void bare(Transformer model, LoraAdapter adapter, PaddedBatch padded, NDManager manager) {
        try (NDManager scope = manager.newSubManager()) {
            NDArray targets = scope.create(padded.targets(), new Shape(padded.rows(), padded.length()));
            StepInputs inputs = StepInputs.scoring(padded.inputRows(), padded.attentionRows());
            try (GradientCollector collector = Engine.getInstance().newGradientCollector()) {
                NDArray logits = model.forward(inputs, scope, null, adapter, true, false);
                collector.backward(TokenScores.fromLogits(logits, targets).logprobs().mean().neg());
            }
            for (NDArray p : adapter.parameters()) {
                try (NDArray g = p.getGradient()) {
                    g.subi(g);
                }
            }
        }
    }
}
