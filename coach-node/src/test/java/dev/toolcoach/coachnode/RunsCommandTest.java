package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunsCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path run(Path root, String name, long seed, double warm, double trained) throws Exception {
        Path dir = Files.createDirectories(root.resolve(name));
        JSON.writeValue(dir.resolve("config.json").toFile(), Map.of("task", "finance", "algorithm", "grpo", "mode", "sync", "seed", seed));
        JSON.writeValue(dir.resolve("eval.json").toFile(), Map.of(
                "after_warmup", Map.of("examples", 300, "correct", (int) (300 * warm), "accuracy", warm, "accuracy_ci95", List.of(warm - 0.05, warm + 0.05)),
                "after_grpo", Map.of("examples", 300, "correct", (int) (300 * trained), "accuracy", trained, "accuracy_ci95", List.of(trained - 0.05, trained + 0.05))));
        Files.writeString(dir.resolve("metrics.jsonl"), "{\"step\":1,\"version\":1,\"groups\":8,\"accuracy\":0.5,\"elapsed_sec\":12.0}\n"
                + "{\"step\":2,\"version\":2,\"groups\":8,\"accuracy\":0.75,\"elapsed_sec\":20.0}\n");
        return dir;
    }

    @Test
    void comparesRunsAsATableWithThePairedIntervalAndDrawsTheirCurves(@TempDir Path root) throws Exception {
        Path a = run(root, "fin-s1", 1, 0.60, 0.70);
        Path b = run(root, "fin-s2", 2, 0.62, 0.64);
        Path png = root.resolve("curves.png");
        CliRun cli = new CliRun();
        assertEquals(0, cli.execute("runs", "compare", a.toString(), b.toString(), "--png", png.toString()), cli.err.toString());
        String[] lines = cli.out.toString().split("\n");
        assertEquals(4, lines.length, cli.out.toString());
        assertTrue(lines[1].startsWith("fin-s1") && lines[1].contains("60.0% (55.0-65.0)") && lines[1].contains("+10.0"), lines[1]);
        // gains 0.10 and 0.02: mean 0.06, sd 0.0566; t(0.975, 1) = 12.706: 0.06 -/+ 0.508
        assertTrue(lines[3].startsWith("2 runs: mean gain +6.0 points, paired 95% CI -44.8 to +56.8; improved in 2 of 2"), lines[3]);
        assertEquals(900, ImageIO.read(png.toFile()).getWidth());
    }

    @Test
    void drawsTheMeanRewardCurvesOnAskingAndNamesAnUnknownCurve(@TempDir Path root) throws Exception {
        Path a = run(root, "hpo-s1", 1, 0.60, 0.70);
        Path png = root.resolve("reward.png");
        CliRun cli = new CliRun();
        assertEquals(0, cli.execute("runs", "compare", a.toString(), "--png", png.toString(), "--curve", "reward"), cli.err.toString());
        assertEquals(900, ImageIO.read(png.toFile()).getWidth());

        cli = new CliRun();
        assertEquals(CommandOutput.INPUT_ERROR, cli.execute("runs", "compare", a.toString(), "--png", png.toString(), "--curve", "loss"));
        assertTrue(cli.err.toString().contains("--curve: unknown curve 'loss'; valid: accuracy, reward"), cli.err.toString());
    }

    @Test
    void showsWhereTheRunsErrorsAreAsTheirOracleRoutesPooled(@TempDir Path root) throws Exception {
        Path a = routed(run(root, "fin-s1", 1, 0.60, 0.70), 12, 30);
        Path b = routed(run(root, "fin-s2", 2, 0.62, 0.64), 10, 20);
        CliRun cli = new CliRun();
        assertEquals(0, cli.execute("runs", "compare", a.toString(), b.toString()), cli.err.toString());
        String[] lines = cli.out.toString().split("\n");
        assertEquals(6, lines.length, cli.out.toString());
        assertTrue(lines[4].startsWith("oracle's calls, all runs"), lines[4]);
        assertTrue(lines[5].startsWith("npv") && lines[5].contains("27.5% (22/80)") && lines[5].contains("62.5% (50/80)")
                && lines[5].endsWith("50.0-75.0% (2)"), lines[5]);

        cli = new CliRun();
        assertEquals(0, cli.execute("runs", "compare", a.toString(), b.toString(), "--json"), cli.err.toString());
        JsonNode pooled = JSON.readTree(cli.out.toString()).path("by_oracle_route").get(0);
        assertEquals("npv", pooled.path("route").asText());
        assertEquals(50, pooled.path("trained").path("correct").asInt());
    }

    /** Adds the accuracy per oracle route: {@code npv} right on that many of 40 questions after the warm-up and training. */
    private static Path routed(Path dir, int warm, int trained) throws Exception {
        ObjectNode evals = (ObjectNode) JSON.readTree(dir.resolve("eval.json").toFile());
        ((ObjectNode) evals.get("after_warmup")).set("by_oracle_route",
                JSON.valueToTree(Map.of("npv", Map.of("examples", 40, "correct", warm, "accuracy", warm / 40.0))));
        ((ObjectNode) evals.get("after_grpo")).set("by_oracle_route",
                JSON.valueToTree(Map.of("npv", Map.of("examples", 40, "correct", trained, "accuracy", trained / 40.0))));
        JSON.writeValue(dir.resolve("eval.json").toFile(), evals);
        return dir;
    }

    @Test
    void aFolderThatIsNoRunIsOneLineAndExitTwo(@TempDir Path root) {
        CliRun cli = new CliRun();
        assertEquals(2, cli.execute("runs", "compare", root.toString()));
        assertEquals(1, cli.err.toString().strip().lines().count(), cli.err.toString());
        assertTrue(cli.err.toString().contains("is not a run folder"), cli.err.toString());
    }
}
