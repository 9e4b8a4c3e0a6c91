package dev.toolcoach.cluster.tools;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.AskPattern;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ExecuteToolCalls;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ReleaseTrajectory;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ToolCallResults;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The agent's tools on the cluster: each turn's calls go, per suite, to a tool server found through
 * the Receptionist, with a deadline. Whatever goes wrong on the way (no server, a server that left,
 * no answer in time) comes back as an error {@link ToolResult} the model sees (UNAVAILABLE or
 * TIMEOUT), never as an exception and never as a stage that does not complete.
 *
 * <p>Thread-safe; one environment serves every athlete of a node. Close it to stop watching.
 */
public final class ClusterToolEnvironment implements ToolEnvironment, AutoCloseable {

    /** Names the watcher actors, so several environments can live in one actor system. */
    private static final AtomicInteger WATCHERS = new AtomicInteger();

    private final ActorSystem<?> system;
    private final ActorRef<ToolServerWatcher.Command> watcher;
    private final ToolServerView view;
    private final ClusterToolSettings settings;
    private final List<ToolSpec> specs;
    private final Map<String, String> suiteByTool;

    private ClusterToolEnvironment(ActorSystem<?> system, ActorRef<ToolServerWatcher.Command> watcher, ToolServerView view,
                                   ClusterToolSettings settings, Map<String, List<ToolSpec>> specsBySuite) {
        this.system = system;
        this.watcher = watcher;
        this.view = view;
        this.settings = settings;
        List<ToolSpec> all = new ArrayList<>();
        Map<String, String> suites = new LinkedHashMap<>();
        specsBySuite.forEach((suite, suiteSpecs) -> suiteSpecs.forEach(spec -> {
            String other = suites.putIfAbsent(spec.name(), suite);
            if (other != null) {
                throw new IllegalStateException("tool '" + spec.name() + "' is offered by both suite '" + other
                        + "' and suite '" + suite + "'; an agent's tools need distinct names");
            }
            all.add(spec);
        }));
        this.specs = List.copyOf(all);
        this.suiteByTool = Collections.unmodifiableMap(suites);
    }

    /**
     * Starts watching the servers of {@code suites} and completes once each suite has a server and its
     * specs are fetched; fails with a message naming the missing suites after the connect timeout. With no suites
     * (an agent offered each example's own tools, which nothing serves: a function-calling dataset) it completes at
     * once, and every call is {@code UNKNOWN_TOOL}.
     */
    public static CompletionStage<ClusterToolEnvironment> connect(ActorSystem<?> system, List<String> suites,
                                                                  ClusterToolSettings settings) {
        ToolServerView view = new ToolServerView();
        ActorRef<ToolServerWatcher.Command> watcher = system.systemActorOf(
                ToolServerWatcher.create(suites, view, settings.callDeadline()),
                "tool-servers-" + WATCHERS.incrementAndGet(), Props.empty());
        return AskPattern.<ToolServerWatcher.Command, ToolServerWatcher.SuiteSpecs>ask(watcher,
                        ToolServerWatcher.AwaitSpecs::new, settings.connectTimeout(), system.scheduler())
                .handle((answer, failure) -> {
                    if (failure == null) {
                        return new ClusterToolEnvironment(system, watcher, view, settings, answer.bySuite());
                    }
                    watcher.tell(ToolServerWatcher.Stop.INSTANCE);
                    List<String> missing = suites.stream().filter(s -> view.listing().servers(s).isEmpty()).toList();
                    throw new CompletionException(new IllegalStateException("tool suites " + suites + " not ready within "
                            + settings.connectTimeout().toMillis() + " ms: " + (missing.isEmpty()
                            ? "servers listed, but their tool specs did not arrive" : "no server hosts " + missing)));
                });
    }

    @Override
    public List<ToolSpec> specs() {
        return specs;
    }

    /** The suites offering this environment's tools. */
    public List<String> suites() {
        return suiteByTool.values().stream().distinct().toList();
    }

    @Override
    public List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
        long startNanos = System.nanoTime();
        List<CompletionStage<ToolResult>> results = new ArrayList<>(Collections.nCopies(calls.size(), null));
        Map<String, List<Integer>> positionsBySuite = new LinkedHashMap<>();
        for (int i = 0; i < calls.size(); i++) {
            String suite = suiteByTool.get(calls.get(i).name());
            if (suite == null) {
                results.set(i, CompletableFuture.completedFuture(ToolResult.failed(calls.get(i), ToolResult.Status.UNKNOWN_TOOL,
                        "unknown tool '" + calls.get(i).name() + "'; available tools: " + String.join(", ", suiteByTool.keySet()),
                        0)));
            } else {
                positionsBySuite.computeIfAbsent(suite, s -> new ArrayList<>()).add(i);
            }
        }
        // one request per suite and turn, so the server runs the turn's calls of its suite concurrently
        positionsBySuite.forEach((suite, positions) -> {
            List<ToolCall> suiteCalls = positions.stream().map(calls::get).toList();
            CompletableFuture<List<ToolResult>> answered = send(suite, trajectoryId, suiteCalls, startNanos);
            for (int j = 0; j < positions.size(); j++) {
                int index = j;
                results.set(positions.get(j), answered.thenApply(list -> list.get(index)));
            }
        });
        return results;
    }

    private CompletableFuture<List<ToolResult>> send(String suite, String trajectoryId, List<ToolCall> calls, long startNanos) {
        Optional<ActorRef<ToolServerProtocol.Command>> server = view.listing().serverFor(suite, trajectoryId);
        if (server.isEmpty()) {
            return CompletableFuture.completedFuture(failedAll(calls, ToolResult.Status.UNAVAILABLE,
                    "no tool server of suite '" + suite + "' is available", startNanos));
        }
        CompletionStage<ToolCallResults> asked = AskPattern.ask(server.get(),
                replyTo -> new ExecuteToolCalls(trajectoryId, calls, replyTo), settings.callDeadline(), system.scheduler());
        return view.track(server.get(), asked).handle((answer, failure) -> {
            if (failure != null) return failedAll(calls, failure, suite, startNanos);
            if (answer.results().size() != calls.size()) {
                return failedAll(calls, ToolResult.Status.ERROR, "the tool server of suite '" + suite + "' answered "
                        + answer.results().size() + " results for " + calls.size() + " calls", startNanos);
            }
            return answer.results();
        });
    }

    private List<ToolResult> failedAll(List<ToolCall> calls, Throwable failure, String suite, long startNanos) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof TimeoutException) {
            return failedAll(calls, ToolResult.Status.TIMEOUT, "no answer from the tool server of suite '" + suite
                    + "' within " + settings.callDeadline().toMillis() + " ms", startNanos);
        }
        String why = cause instanceof ServerLeftException ? "the tool server of suite '" + suite + "' left before answering"
                : "the tool server of suite '" + suite + "' could not be reached: " + cause.getMessage();
        return failedAll(calls, ToolResult.Status.UNAVAILABLE, why, startNanos);
    }

    private static List<ToolResult> failedAll(List<ToolCall> calls, ToolResult.Status status, String error, long startNanos) {
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        return calls.stream().map(call -> ToolResult.failed(call, status, error, millis)).toList();
    }

    /** Tells every server of every suite to drop the trajectory's state; servers that missed it drop it when idle. */
    @Override
    public CompletionStage<Void> release(String trajectoryId) {
        ReleaseTrajectory release = new ReleaseTrajectory(trajectoryId);
        suites().forEach(suite -> view.listing().servers(suite).forEach(server -> server.tell(release)));
        return CompletableFuture.completedFuture(null);
    }

    /** Stops watching the servers; calls made afterwards still complete, with results from the last listing. */
    @Override
    public void close() {
        watcher.tell(ToolServerWatcher.Stop.INSTANCE);
    }
}
