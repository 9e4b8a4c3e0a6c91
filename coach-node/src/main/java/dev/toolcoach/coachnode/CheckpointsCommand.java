package dev.toolcoach.coachnode;

import dev.toolcoach.learn.checkpoint.CheckpointStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code checkpoints RUN}: every checkpoint of a run folder, each decoded and verified, as a JSON summary; exit 1
 * when one does not verify. For an audit after a crash, and to see which step a resume would start from.
 */
@Command(name = "checkpoints", mixinStandardHelpOptions = true,
        description = "List and verify the checkpoints of a training run (exit 1 if one is damaged).")
public final class CheckpointsCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RUN", description = "the run folder (holding checkpoints/), or its checkpoints folder")
    Path run;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Path dir = Files.isDirectory(run.resolve("checkpoints")) ? run.resolve("checkpoints") : run;
        if (!Files.isDirectory(dir)) {
            return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, run + " is not a folder");
        }
        List<CheckpointStore.Verified> all = new CheckpointStore(dir, 1).verifyAll();
        List<Map<String, Object>> rows = all.stream().map(v -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("file", v.file().getFileName().toString());
            row.put("step", v.step());
            if (v.refusal() == null) {
                row.put("version", v.version());
                row.put("ok", true);
            } else {
                row.put("ok", false);
                row.put("error", v.refusal());
            }
            return row;
        }).toList();
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("folder", dir.toString());
        summary.put("checkpoints", rows);
        summary.put("damaged", all.stream().filter(v -> v.refusal() != null).count());
        CommandOutput.summary(spec, summary);
        return all.stream().anyMatch(v -> v.refusal() != null) ? CommandOutput.RUN_ERROR : 0;
    }
}
