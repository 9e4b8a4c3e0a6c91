package dev.toolcoach.brain.jobcontroller;

import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import akka.actor.ExtendedActorSystem;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.run.RunFolderLock;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.brain.taskjob.TrainingMode;
import dev.toolcoach.cluster.management.ManagementServer;
import dev.toolcoach.cluster.node.NodeProgram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every job ends: one that throws an {@code Error} ends failed and frees the controller, a cancelled one ends
 * cancelled, and a run folder another job holds is refused. The controller runs on a real coach node; the job body is
 * the test's, so the failure it needs happens on cue.
 */
class JobLifecycleTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration END_DEADLINE = Duration.ofSeconds(30);

    @TempDir
    Path runs;
    private final TestNodes nodes = new TestNodes();
    private ActorSystem<?> coach;

    @BeforeEach
    void startCoach() {
        coach = nodes.start(NodeProgram.COACH, List.of(), runs, Map.of("akka.management.http.route-providers-read-only", "off"));
    }

    @AfterEach
    void stopCoach() {
        nodes.close();
    }

    @Test
    void aJobThatThrowsAnErrorEndsFailedAndTheNextJobIsAccepted() throws Exception {
        JobController controller = controller((options, listener, lock) -> {
            listener.phase("train");
            throw new StackOverflowError();
        });
        controller.submit(request("deep"));
        JobStatus failed = awaitEnd(controller);
        assertEquals("failed", failed.state());
        assertEquals("java.lang.StackOverflowError", failed.error());
        assertEquals("failed", JSON.readTree(runs.resolve("deep/job.json").toFile()).get("state").asText());
        assertEquals(List.of("deep failed"), jobStates(), "what an alert rule reads: toolcoach_job_state{job, state} 1");

        assertEquals("running", controller.submit(request("next")).state(), "the controller is free again");
        assertEquals("failed", awaitEnd(controller).state());
    }

    /** The coach's {@code toolcoach_job_state} data points set to 1, as "job state". */
    private List<String> jobStates() {
        return ToolCoachMetrics.get(coach).registry().scrape().stream().filter(m -> m.getMetadata().getName().equals("toolcoach_job_state"))
                .flatMap(m -> m.getDataPoints().stream()).map(p -> (GaugeSnapshot.GaugeDataPointSnapshot) p).filter(p -> p.getValue() == 1)
                .map(p -> p.getLabels().get("job") + " " + p.getLabels().get("state")).toList();
    }

    @Test
    void aCancelledJobStopsAndEndsCancelledAndItsFolderIsFreeAgain() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Boolean> interrupted = new AtomicReference<>(false);
        JobController controller = controller((options, listener, lock) -> {
            listener.phase("train");
            started.countDown();
            try {
                new CountDownLatch(1).await(); // a job that never ends by itself
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw new IllegalStateException("interrupted while training", e);
            }
        });
        assertEquals(Optional.empty(), controller.cancel("slow"), "no such job yet");
        controller.submit(request("slow"));
        assertTrue(started.await(END_DEADLINE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(Optional.empty(), controller.cancel("other"), "only the job named");

        assertEquals("cancelling", controller.cancel("slow").orElseThrow().phase());
        JobStatus cancelled = awaitEnd(controller);
        assertEquals("cancelled", cancelled.state());
        assertTrue(interrupted.get(), "the job's thread was interrupted");
        assertEquals("cancelled", JSON.readTree(runs.resolve("slow/job.json").toFile()).get("state").asText());
        RunFolderLock.acquire(runs.resolve("slow")).close(); // released
    }

    @Test
    void aRunFolderAnotherJobHoldsIsRefusedWithOneLine() throws Exception {
        JobController controller = controller((options, listener, lock) -> listener.phase("train"));
        try (RunFolderLock held = RunFolderLock.acquire(runs.resolve("shared"))) {
            JobController.Rejected rejected = assertThrows(JobController.Rejected.class, () -> controller.submit(request("shared")));
            assertTrue(rejected.conflict());
            assertEquals("run folder " + runs.resolve("shared") + " is in use by another job (" + runs.resolve("shared/.lock")
                    + " is locked)", rejected.getMessage());
        }
        controller.submit(request("shared"));
        assertEquals("finished", awaitEnd(controller).state());
    }

    @Test
    void aTurnBarrierJobIsRefusedAtTheDoorWithOneLine() {
        JobController controller = controller((options, listener, lock) -> listener.phase("train"));
        TrainingJobSpec barrier = request("barrier").toBuilder().mode(TrainingMode.TURN_BARRIER).build();
        JobController.Rejected rejected = assertThrows(JobController.Rejected.class, () -> controller.submit(barrier));
        assertEquals("mode turn-barrier runs in an embedded job (train --mode turn-barrier), not on a cluster's actors: "
                + "use sync or async", rejected.getMessage());
    }

    @Test
    void theCancelRouteAnswers404ForAJobThatIsNotRunning() throws Exception {
        String url = ManagementServer.get(coach).url() + "/jobs/nothing/cancel";
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, response.statusCode());
        assertEquals("no job named 'nothing' is running", JSON.readTree(response.body()).get("error").asText());
    }

    /**
     * A job that takes its node down on every start (a poison: its record still says running each time the node comes
     * back) is resumed while it makes progress, and marked failed, not resumed, once it has gone down
     * {@value JobController#MAX_RESUMES_WITHOUT_PROGRESS} times after a resume without a new learner step.
     */
    @Test
    void aJobThatTakesItsNodeDownOnEveryStartEndsFailedInsteadOfLoopingForever() throws Exception {
        TrainingJobSpec poison = request("poison");
        Files.createDirectories(runs.resolve("poison"));
        List<String> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        JobController.JobWork crashes = (options, listener, lock) -> started.add(options.runDir().getFileName().toString());
        for (int resumes = 0; resumes < JobController.MAX_RESUMES_WITHOUT_PROGRESS; resumes++) {
            JSON.writeValue(runs.resolve("poison/job.json").toFile(), Map.of("request", poison, "state", "running",
                    "resumes", resumes, "step_at_resume", 0));
            awaitEnd(controller(crashes)); // a node that comes back resumes it
            assertEquals(resumes + 1, started.size(), "resumed while under the limit");
        }
        JSON.writeValue(runs.resolve("poison/job.json").toFile(), Map.of("request", poison, "state", "running",
                "resumes", JobController.MAX_RESUMES_WITHOUT_PROGRESS, "step_at_resume", 0));
        controller(crashes);

        assertEquals(JobController.MAX_RESUMES_WITHOUT_PROGRESS, started.size(), "not started again");
        JsonNode record = JSON.readTree(runs.resolve("poison/job.json").toFile());
        assertEquals("failed", record.get("state").asText());
        assertEquals("its node went down with it 4 times in a row without a new learner step: not resumed again (submit it "
                + "again to retry)", record.get("error").asText());
    }

    private JobController controller(JobController.JobWork work) {
        return new JobController((ExtendedActorSystem) Adapter.toClassic(coach), work);
    }

    private TrainingJobSpec request(String name) {
        return TrainingJobSpec.builder().task("finance").name(name).steps(1).warmupTraces(0).athletes(1).seed(1L).checkpointEvery(1)
                .runsDir(runs).dataDir(Path.of("../shared/data")).build();
    }

    private static JobStatus awaitEnd(JobController controller) throws InterruptedException {
        long deadline = System.nanoTime() + END_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            JobStatus status = controller.status().orElseThrow();
            if (!status.state().equals("running")) return status;
            Thread.sleep(20); // polling the controller's status with a deadline: the job ends on its own thread
        }
        throw new AssertionError("the job did not end within " + END_DEADLINE);
    }
}
