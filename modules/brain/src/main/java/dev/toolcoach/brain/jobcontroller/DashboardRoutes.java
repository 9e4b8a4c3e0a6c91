package dev.toolcoach.brain.jobcontroller;

import akka.actor.AbstractExtensionId;
import akka.actor.Address;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.AskPattern;
import akka.actor.typed.receptionist.Receptionist;
import akka.cluster.Member;
import akka.cluster.typed.Cluster;
import akka.http.javadsl.model.ContentType;
import akka.http.javadsl.model.ContentTypes;
import akka.http.javadsl.model.HttpCharsets;
import akka.http.javadsl.model.HttpEntities;
import akka.http.javadsl.model.HttpHeader;
import akka.http.javadsl.model.HttpResponse;
import akka.http.javadsl.model.MediaTypes;
import akka.http.javadsl.model.StatusCodes;
import akka.http.javadsl.model.headers.RawHeader;
import akka.http.javadsl.server.Directives;
import akka.http.javadsl.server.PathMatchers;
import akka.http.javadsl.server.Route;
import akka.management.javadsl.ManagementRouteProvider;
import akka.management.javadsl.ManagementRouteProviderSettings;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.toolcoach.cluster.coach.CoachMetrics;
import dev.toolcoach.cluster.discovery.ServiceKeys;
import dev.toolcoach.cluster.learner.LearnerMetrics;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerStatus;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachProgress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * {@code GET /dashboard}: a live page of the coach node's job (phase, reward and accuracy curves, rollouts/s, groups and
 * rollouts in flight, policy lag, dropped and re-dispatched counts, athletes per node, tool-call figures), polling
 * {@code GET /dashboard/data} ({@link DashboardData}). Every asset is served from the jar (the page, its script, uPlot
 * from its webjar), so it needs no outside network. Read-only and without credentials, as {@code GET /jobs} and
 * {@code /metrics} are: it shows run figures and names, never trace text. Named in {@code akka.management.http.routes}.
 */
public final class DashboardRoutes extends AbstractExtensionId<DashboardRoutes.Routes> implements ExtensionIdProvider {

    private static final DashboardRoutes INSTANCE = new DashboardRoutes();
    private static final Logger LOG = LoggerFactory.getLogger(DashboardRoutes.class);
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    /** The page runs its own scripts and styles only; its data comes from this server. */
    private static final List<HttpHeader> HEADERS = List.of(
            RawHeader.create("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline';"
                    + " connect-src 'self'; img-src 'self' data:"),
            RawHeader.create("X-Content-Type-Options", "nosniff"), RawHeader.create("Cache-Control", "no-store"));

    @Override
    public DashboardRoutes lookup() {
        return INSTANCE;
    }

    @Override
    public Routes createExtension(ExtendedActorSystem system) {
        return new Routes(Adapter.toTyped(system), JobController.ID.get(system));
    }

    /** The {@code /dashboard} routes. */
    public static final class Routes implements Extension, ManagementRouteProvider {
        private final ActorSystem<?> system;
        private final JobController controller;
        private final Map<String, Asset> assets;
        /** The last coach and learner figures seen, kept once their actors stop so a finished job still shows them. */
        private final AtomicReference<CoachProgress> lastCoach = new AtomicReference<>();
        private final AtomicReference<LearnerStatus> lastLearner = new AtomicReference<>();

        private record Asset(ContentType type, byte[] bytes) {
        }

        Routes(ActorSystem<?> system, JobController controller) {
            this.system = system;
            this.controller = controller;
            String uplot = "META-INF/resources/webjars/uplot/" + webjarVersion("uplot") + "/dist/";
            this.assets = Map.of(
                    "dashboard.js", new Asset(ContentTypes.create(MediaTypes.APPLICATION_JAVASCRIPT, HttpCharsets.UTF_8),
                            resource("dev/toolcoach/brain/jobcontroller/dashboard.js")),
                    "dashboard.css", new Asset(ContentTypes.create(MediaTypes.TEXT_CSS, HttpCharsets.UTF_8),
                            resource("dev/toolcoach/brain/jobcontroller/dashboard.css")),
                    "uPlot.iife.min.js", new Asset(ContentTypes.create(MediaTypes.APPLICATION_JAVASCRIPT, HttpCharsets.UTF_8),
                            resource(uplot + "uPlot.iife.min.js")),
                    "uPlot.min.css", new Asset(ContentTypes.create(MediaTypes.TEXT_CSS, HttpCharsets.UTF_8),
                            resource(uplot + "uPlot.min.css")));
        }

        @Override
        public Route routes(ManagementRouteProviderSettings settings) {
            byte[] page = resource("dev/toolcoach/brain/jobcontroller/dashboard.html");
            return Directives.pathPrefix("dashboard", () -> Directives.get(() -> Directives.respondWithHeaders(HEADERS, () -> Directives.concat(
                    Directives.pathEnd(() -> Directives.complete(HttpResponse.create()
                            .withEntity(HttpEntities.create(ContentTypes.TEXT_HTML_UTF8, page)))),
                    // extractRequest: the data are gathered anew for every request
                    Directives.path("data", () -> Directives.extractRequest(request -> Directives.onComplete(data(), reply -> {
                        if (reply.isSuccess()) return json(reply.get());
                        LOG.error("the dashboard's data could not be gathered", reply.failed().get());
                        return Directives.complete(StatusCodes.INTERNAL_SERVER_ERROR, "the dashboard's data could not be gathered");
                    }))),
                    Directives.path(PathMatchers.segment(), name -> assets.containsKey(name)
                            ? Directives.complete(HttpResponse.create().withEntity(
                                    HttpEntities.create(assets.get(name).type(), assets.get(name).bytes())))
                            : Directives.reject())))));
        }

        /** The figures now: the job controller's, the coach's and learner's on this node, the cluster's members and athletes. */
        CompletionStage<DashboardData> data() {
            CompletionStage<Receptionist.Listing> athletes = AskPattern.ask(system.receptionist(),
                    (ActorRef<Receptionist.Listing> replyTo) -> Receptionist.find(ServiceKeys.ATHLETES, replyTo),
                    Duration.ofSeconds(3), system.scheduler());
            return athletes.thenApply(listing -> {
                Address self = Cluster.get(system).selfMember().address();
                Map<Address, Long> byNode = listing.getServiceInstances(ServiceKeys.ATHLETES).stream()
                        .map(ActorRef::path).map(p -> p.address().hasLocalScope() ? self : p.address())
                        .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
                List<DashboardData.Node> nodes = StreamSupport.stream(Cluster.get(system).state().getMembers().spliterator(), false)
                        .map((Member m) -> new DashboardData.Node(m.address().toString(), m.getRoles().stream().sorted().toList(),
                                m.status().toString(), byNode.getOrDefault(m.address(), 0L).intValue()))
                        .toList();
                CoachMetrics.get(system).latest().ifPresent(lastCoach::set);
                LearnerMetrics.get(system).latest().ifPresent(lastLearner::set);
                return DashboardData.of(controller.status().orElse(null), controller.steps(), lastCoach.get(), lastLearner.get(), nodes);
            });
        }

        private Route json(DashboardData data) {
            try {
                return Directives.complete(HttpResponse.create().withEntity(
                        HttpEntities.create(ContentTypes.APPLICATION_JSON, JSON.writeValueAsString(data))));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("the dashboard's data cannot be written as JSON", e);
            }
        }

        /** The version of the npm webjar on the classpath, from its Maven properties (the pom pins it once). */
        private static String webjarVersion(String artifact) {
            Properties properties = new Properties();
            try {
                properties.load(new ByteArrayInputStream(resource("META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties")));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the " + artifact + " webjar's version", e);
            }
            return properties.getProperty("version");
        }

        private static byte[] resource(String name) {
            try (InputStream in = DashboardRoutes.class.getClassLoader().getResourceAsStream(name)) {
                if (in == null) throw new IllegalStateException(name + " is missing from the classpath");
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + name, e);
            }
        }
    }
}
