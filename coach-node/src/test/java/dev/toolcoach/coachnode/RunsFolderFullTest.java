package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.run.RunRecorder;
import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.learn.checkpoint.CheckpointStore;
import dev.toolcoach.testkit.ChildJvm;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The runs folder fills up mid-job: {@code train} runs in a child JVM whose runs folder is a 2.5 MiB tmpfs (mounted in
 * a user and mount namespace of its own, {@code unshare -Urm}, so no privilege is needed and nothing outlives the
 * test). The job ends with one line naming the file it could not write; its checkpoints verify; once the tmpfs is
 * grown, {@code train --name} resumes from the newest checkpoint and ends with every step recorded once and no
 * rollout twice.
 */
class RunsFolderFullTest {

    private static final String RECIPE = """
            {"shape": {"dim": 32, "hiddenDim": 64, "layers": 2, "heads": 2, "kvHeads": 2, "maxSeqLen": 768},
             "maxMerges": 64, "minMergeCount": 8, "warmupTraces": 8, "warmupEpochs": 1, "warmupBatch": 4, "warmupLr": 0.003,
             "groupSize": 4, "groupsPerStep": 2, "grpoSteps": 12, "temperature": 1.0, "grpoLr": 0.002, "callWeight": 0.5,
             "lora": {"r": 4, "alpha": 8.0, "dropout": 0.0, "targets": ["q_proj", "v_proj"]}, "oversampling": 1,
             "maxTurns": 3, "maxTotalTokens": 768, "maxNewTokens": 96, "engineBatch": 8, "testExamples": 10, "passAtKQueries": 2}""";

    @Test
    void aJobWhoseRunsFolderFillsUpEndsInOneLineAndResumesOnceThereIsRoom(@TempDir Path dir) throws Exception {
        assumeTrue(unshareWorks(dir), "this machine lets no process make a user and mount namespace (unshare -Urm)");
        Path recipe = Files.writeString(dir.resolve("recipe.json"), RECIPE);
        Path runs = Files.createDirectories(dir.resolve("runs"));
        Path saved = Files.createDirectories(dir.resolve("saved"));
        String train = String.join(" ", ChildJvm.command(CoachNodeMain.class, "train", "--task", "arithmetic", "--recipe",
                recipe.toString(), "--name", "full", "--runs", runs.toString(), "--checkpoint-every", "2",
                "--data-dir", SharedData.require(".").toString()).stream().map(RunsFolderFullTest::quoted).toList());
        // one namespace for both runs: the tmpfs and what the first run left in it live as long as the script
        String script = String.join("\n", "set -u",
                "mount -t tmpfs -o size=2560k tmpfs " + quoted(runs.toString()),
                train + " > " + quoted(dir.resolve("out1").toString()) + " 2> " + quoted(dir.resolve("err1").toString())
                        + "; echo $? > " + quoted(dir.resolve("exit1").toString()),
                "cp -r " + quoted(runs.resolve("full").toString()) + " " + quoted(saved.resolve("at-failure").toString()),
                "mount -o remount,size=64m " + quoted(runs.toString()),
                train + " > " + quoted(dir.resolve("out2").toString()) + " 2> " + quoted(dir.resolve("err2").toString())
                        + "; echo $? > " + quoted(dir.resolve("exit2").toString()),
                "cp -r " + quoted(runs.resolve("full").toString()) + " " + quoted(saved.resolve("after-resume").toString()));
        Process process = new ProcessBuilder("unshare", "-Urm", "sh", "-c", script).redirectErrorStream(true)
                .redirectOutput(dir.resolve("unshare.log").toFile()).start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("the two runs did not end in 10 minutes");
        }
        assertEquals(0, process.exitValue(), Files.readString(dir.resolve("unshare.log")));

        // the full folder ends the job in one line naming the file, with a failure's exit status
        assertNotEquals("0", Files.readString(dir.resolve("exit1")).strip(), Files.readString(dir.resolve("err1")));
        List<String> err1 = Files.readAllLines(dir.resolve("err1"));
        String last = err1.get(err1.size() - 1);
        assertTrue(last.startsWith("train: ") && last.contains(runs.resolve("full").toString()) && last.contains("No space left on device"),
                last);
        Path atFailure = saved.resolve("at-failure");
        List<CheckpointStore.Verified> checkpoints = new CheckpointStore(atFailure.resolve("checkpoints"), 1).verifyAll();
        assertTrue(!checkpoints.isEmpty() && checkpoints.stream().allMatch(c -> c.refusal() == null), String.valueOf(checkpoints));
        long recordedAtFailure = RunRecorder.read(atFailure).size();
        assertTrue(recordedAtFailure > 0 && recordedAtFailure < 12, recordedAtFailure + " steps recorded before the folder filled");

        // with room again the same command resumes from the newest checkpoint and finishes
        assertEquals("0", Files.readString(dir.resolve("exit2")).strip(), Files.readString(dir.resolve("err2")));
        assertTrue(Files.readString(dir.resolve("err2")).contains("resuming from the checkpoint after job step"));
        Path run = saved.resolve("after-resume");
        assertEquals(LongStream.rangeClosed(1, 12).boxed().toList(), RunRecorder.read(run).stream().map(StepLine::step).toList(),
                "every step recorded once");
        JsonLines.Read<Trace> read = TraceJson.read(run.resolve("traces.jsonl"));
        assertEquals(List.of(), read.skipped(), "no torn or glued line");
        List<String> ids = read.items().stream().map(Trace::rolloutId).toList();
        assertEquals(ids.size(), ids.stream().distinct().count(), "no rollout recorded twice");
        assertEquals(12L * 2 * 4, ids.size(), "each step's rollouts recorded: 12 steps of 2 groups of 4");
        assertTrue(new ObjectMapper().readTree(run.resolve("eval.json").toFile()).has("after_grpo"));
    }

    /** Whether this machine lets an unprivileged process mount a tmpfs in namespaces of its own. */
    private static boolean unshareWorks(Path dir) throws Exception {
        Path probe = Files.createDirectories(dir.resolve("probe"));
        try {
            Process p = new ProcessBuilder("unshare", "-Urm", "mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.toString())
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException noUnshare) {
            return false;
        }
    }

    private static String quoted(String word) {
        return "'" + word.replace("'", "'\"'\"'") + "'";
    }
}
