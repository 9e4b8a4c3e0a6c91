package dev.toolcoach.cluster.tools;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.cluster.discovery.ServiceKeys;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.GetToolSpecs;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;
import dev.toolcoach.cluster.protocol.ToolServerProtocol.ToolSpecs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The athlete side's eyes on the tool servers: subscribes to the Receptionist for each needed suite,
 * keeps the {@link ToolServerView} current, and fetches each suite's tool specs once, from the first
 * server that lists it.
 */
final class ToolServerWatcher extends AbstractBehavior<ToolServerWatcher.Command> {

    sealed interface Command {
    }

    /** Answer {@link SuiteSpecs} once every suite's specs are known. Local only. */
    record AwaitSpecs(ActorRef<SuiteSpecs> replyTo) implements Command, NoSerializationVerificationNeeded {
    }

    /** The tool specs of every suite, in the order the suites were asked for. */
    record SuiteSpecs(Map<String, List<ToolSpec>> bySuite) implements NoSerializationVerificationNeeded {
        SuiteSpecs {
            bySuite = Collections.unmodifiableMap(new LinkedHashMap<>(bySuite));
        }
    }

    /** The environment is closed. */
    enum Stop implements Command, NoSerializationVerificationNeeded { INSTANCE }

    /** Every subscription shares this one adapter: an actor keeps only one adapter per message class. */
    private record Listed(Receptionist.Listing listing) implements Command {
    }

    private record SpecsFetched(String suite, ToolSpecs specs, Throwable failure)
            implements Command, NoSerializationVerificationNeeded {
    }

    private final List<String> suites;
    private final ToolServerView view;
    private final Duration askTimeout;
    private final Map<String, List<ToolSpec>> specs = new LinkedHashMap<>();
    private final Set<String> fetching = new HashSet<>();
    private final List<ActorRef<SuiteSpecs>> awaiting = new ArrayList<>();

    static Behavior<Command> create(List<String> suites, ToolServerView view, Duration askTimeout) {
        return Behaviors.setup(context -> new ToolServerWatcher(context, suites, view, askTimeout));
    }

    private ToolServerWatcher(ActorContext<Command> context, List<String> suites, ToolServerView view, Duration askTimeout) {
        super(context);
        this.suites = List.copyOf(suites);
        this.view = view;
        this.askTimeout = askTimeout;
        ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class, Listed::new);
        for (String suite : suites) {
            context.getSystem().receptionist().tell(Receptionist.subscribe(ServiceKeys.toolSuite(suite), listings));
        }
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Listed.class, this::onListing)
                .onMessage(AwaitSpecs.class, this::onAwait)
                .onMessage(SpecsFetched.class, this::onFetched)
                .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
                .build();
    }

    private Behavior<Command> onListing(Listed listed) {
        for (String suite : suites) {
            ServiceKey<ToolServerProtocol.Command> key = ServiceKeys.toolSuite(suite);
            if (listed.listing().isForKey(key)) {
                view.update(view.listing().withSuite(suite, listed.listing().getServiceInstances(key)));
            }
        }
        fetchMissingSpecs();
        return this;
    }

    private Behavior<Command> onAwait(AwaitSpecs await) {
        awaiting.add(await.replyTo());
        answerIfComplete();
        return this;
    }

    private Behavior<Command> onFetched(SpecsFetched fetched) {
        fetching.remove(fetched.suite());
        if (fetched.failure() == null) {
            specs.put(fetched.suite(), fetched.specs().specs());
            answerIfComplete();
        } else {
            getContext().getLog().warn("could not fetch the tool specs of suite '{}': {}", fetched.suite(), fetched.failure().toString());
            fetchMissingSpecs(); // from whichever server is listed now
        }
        return this;
    }

    private void fetchMissingSpecs() {
        for (String suite : suites) {
            List<ActorRef<ToolServerProtocol.Command>> servers = view.listing().servers(suite);
            if (specs.containsKey(suite) || fetching.contains(suite) || servers.isEmpty()) continue;
            fetching.add(suite);
            getContext().ask(ToolSpecs.class, servers.get(0), askTimeout, GetToolSpecs::new,
                    (answer, failure) -> new SpecsFetched(suite, answer, failure));
        }
    }

    private void answerIfComplete() {
        if (specs.size() < suites.size()) return;
        Map<String, List<ToolSpec>> ordered = new LinkedHashMap<>();
        suites.forEach(suite -> ordered.put(suite, specs.get(suite)));
        awaiting.forEach(replyTo -> replyTo.tell(new SuiteSpecs(ordered)));
        awaiting.clear();
    }
}
