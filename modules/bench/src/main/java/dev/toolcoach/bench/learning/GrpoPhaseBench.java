package dev.toolcoach.bench.learning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.bench.PreparedRun;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The main job's GRPO phase alone, from a warmed-up run folder (its {@code init/}, {@code distilled/} and
 * {@code eval.json}, see {@link PreparedRun}): the job run for {@code steps} steps (async, the recipe's defaults
 * otherwise) and its rollout throughput read back from the run folder: generated tokens per second = groups sampled
 * x group size x the mean generated tokens of a trained rollout, over the phase's wall time (metrics.jsonl's last
 * {@code elapsed_sec}). The same source compiles against older commits, so a run of each, one after the other on
 * the same machine, gives the ratio.
 *
 * <pre>
 * java -cp modules/bench/target/benchmarks.jar dev.toolcoach.bench.learning.GrpoPhaseBench runs/finance-... [steps=20] [dataDir=../shared/data]
 * </pre>
 */
public final class GrpoPhaseBench {
    private static final ObjectMapper JSON = new ObjectMapper();

    private GrpoPhaseBench() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: GrpoPhaseBench <warmed-up run folder> [steps] [data dir]");
            System.exit(2);
        }
        Path source = Path.of(args[0]);
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        Path dataDir = Path.of(args.length > 2 ? args[2] : "../shared/data");
        long seed = JSON.readTree(source.resolve("config.json").toFile()).get("seed").asLong();
        Path run = Files.createTempDirectory("grpo-phase").resolve("run");
        PreparedRun.copy(source, run);
        ScratchRecipe recipe = ScratchRecipe.defaults().withGrpoSteps(steps);
        int group = recipe.grpo().groupSize();
        TrainingJobSpec options = TrainingJobSpec.builder().task("finance").dataDir(dataDir).runDir(run)
                .recipe(recipe).seed(seed).build();
        TaskTrainingJob.run(options, Optional.empty(), phase -> System.err.println("phase " + phase));
        double elapsed = 0;
        long groups = 0;
        int lines = 0;
        try (BufferedReader in = Files.newBufferedReader(run.resolve("metrics.jsonl"))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                JsonNode m = JSON.readTree(line);
                elapsed = m.get("elapsed_sec").asDouble();
                groups += m.get("groups_sampled").asLong();
                lines++;
            }
        }
        long traces = 0;
        long generated = 0;
        try (BufferedReader in = Files.newBufferedReader(run.resolve("traces.jsonl"))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                for (JsonNode mask : JSON.readTree(line).get("tokens").get("loss_mask")) {
                    generated += mask.asInt();
                }
                traces++;
            }
        }
        double perRollout = traces == 0 ? 0 : (double) generated / traces;
        System.out.printf("GRPO phase: %d steps in %.1f s, %d groups sampled (%d rollouts), %.1f generated tokens per trained rollout;"
                        + " %.0f generated tokens/s, %.2f rollouts/s; peak RSS %s; load %s%n",
                lines, elapsed, groups, groups * group, perRollout, groups * group * perRollout / elapsed,
                groups * group / elapsed, peakRss(), Load.now());
    }

    private static String peakRss() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmHWM:"))
                .map(l -> l.substring(6).trim()).findFirst().orElse("?");
    }
}
