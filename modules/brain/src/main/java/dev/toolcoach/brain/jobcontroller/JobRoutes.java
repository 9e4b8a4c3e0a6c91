package dev.toolcoach.brain.jobcontroller;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import akka.http.javadsl.model.ContentTypes;
import dev.toolcoach.tools.skills.SkillCard;
import dev.toolcoach.tools.skills.SkillFile;
import dev.toolcoach.tools.skills.SkillLibrary;
import akka.http.javadsl.model.HttpEntities;
import akka.http.javadsl.model.StatusCode;
import akka.http.javadsl.model.StatusCodes;
import akka.http.javadsl.server.Directives;
import akka.http.javadsl.server.PathMatchers;
import akka.http.javadsl.server.Route;
import akka.http.javadsl.unmarshalling.Unmarshaller;
import akka.management.javadsl.ManagementRouteProvider;
import akka.management.javadsl.ManagementRouteProviderSettings;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.Config;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.trace.UntrustedJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code POST /jobs} (a JSON {@link TrainingJobSpec}) starts a task training job on the coach node: 202 with the
 * job's status, 400 for a bad request, 409 while another job runs. {@code GET /jobs} shows the current or last
 * job (404 before any). {@code POST /jobs/{name}/cancel} cancels the running job of that name: 202 with its status,
 * 404 when no job of that name runs. Named in {@code akka.management.http.routes}; Akka Management asks it for its extension.
 *
 * <p>Starting a job runs code and reads files on this node, so both {@code POST}s are refused (403) while Akka
 * Management's {@code route-providers-read-only} is on; the management server lets them through only with the
 * management token, or from this machine's own clients on loopback ({@code cluster.management.ManagementWrites}).
 * The body is limited in size ({@code toolcoach.jobs.max-request-body}, 413) and nesting, and is confined to the
 * node's runs and data folders ({@link TrainingJobSpec#fromNetwork}).
 *
 * <p>{@code GET /skills} lists the skills of the cluster's skill folder ({@code toolcoach.tools.skills.dir}) with their
 * provenance; {@code POST /skills/{name}/approve} approves a pending one, which the tool nodes then register. Approving
 * changes what athletes may call, so it takes the same credentials as the job {@code POST}s.
 */
public final class JobRoutes extends AbstractExtensionId<JobRoutes.Routes> implements ExtensionIdProvider {

    private static final JobRoutes INSTANCE = new JobRoutes();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = LoggerFactory.getLogger(JobRoutes.class);

    @Override
    public JobRoutes lookup() {
        return INSTANCE;
    }

    @Override
    public Routes createExtension(ExtendedActorSystem system) {
        Config config = system.settings().config();
        Config jobs = config.getConfig("toolcoach.jobs");
        return new Routes(JobController.ID.get(system), Path.of(jobs.getString("runs-dir")), Path.of(jobs.getString("data-dir")),
                Path.of(jobs.getString("models-dir")), jobs.getBytes("max-request-body"), config.getString("toolcoach.tools.skills.dir"));
    }

    /** The {@code /jobs} routes over the node's job controller. */
    public static final class Routes implements Extension, ManagementRouteProvider {
        private final JobController controller;
        private final Path runsRoot;
        private final Path dataRoot;
        private final Path modelsRoot;
        private final long maxBody;
        /** The cluster's skill folder, or null when none is configured. */
        private final SkillLibrary skills;

        Routes(JobController controller, Path runsRoot, Path dataRoot, Path modelsRoot, long maxBody, String skillsDir) {
            this.controller = controller;
            this.runsRoot = runsRoot;
            this.dataRoot = dataRoot;
            this.modelsRoot = modelsRoot;
            this.maxBody = maxBody;
            this.skills = skillsDir.isBlank() ? null : new SkillLibrary(Path.of(skillsDir));
        }

        @Override
        public Route routes(ManagementRouteProviderSettings settings) {
            return Directives.concat(Directives.path(PathMatchers.segment("jobs").slash(PathMatchers.segment()).slash("cancel"),
                    name -> Directives.post(() -> allowed(settings.readOnly(), () -> controller.cancel(name)
                            .map(s -> json(StatusCodes.ACCEPTED, withoutNodePaths(s)))
                            .orElseGet(() -> json(StatusCodes.NOT_FOUND, Map.of("error", "no job named '" + name + "' is running")))))),
                    jobsRoute(settings), skillsRoutes(settings));
        }

        private Route skillsRoutes(ManagementRouteProviderSettings settings) {
            return Directives.concat(
                    Directives.path("skills", () -> Directives.get(() -> withSkills(library ->
                            json(StatusCodes.OK, library.all().stream().map(SkillCard::summary).toList())))),
                    Directives.path(PathMatchers.segment("skills").slash(PathMatchers.segment()).slash("approve"),
                            name -> Directives.post(() -> allowed(settings.readOnly(), () -> withSkills(library -> {
                                try {
                                    return json(StatusCodes.OK, SkillCard.summary(library.approve(name)));
                                } catch (java.io.IOException e) {
                                    return error(StatusCodes.INTERNAL_SERVER_ERROR, "cannot write the skill: " + e.getMessage());
                                }
                            })))));
        }

        /** Any failure is answered: a bad definition as 400 with its one line, an unknown skill as 404. */
        private Route withSkills(java.util.function.Function<SkillLibrary, Route> inner) {
            if (skills == null) return error(StatusCodes.NOT_FOUND, "no skill folder is configured (toolcoach.tools.skills.dir)");
            try {
                return inner.apply(skills);
            } catch (SkillFile.SkillFileException e) {
                return error(StatusCodes.BAD_REQUEST, e.getMessage());
            } catch (IllegalArgumentException e) {
                return error(StatusCodes.NOT_FOUND, e.getMessage());
            } catch (Throwable t) {
                LOG.error("a skills request failed", t);
                return error(StatusCodes.INTERNAL_SERVER_ERROR, "the skills request failed: " + t.getClass().getSimpleName());
            }
        }

        private Route jobsRoute(ManagementRouteProviderSettings settings) {
            return Directives.path("jobs", () -> Directives.concat(
                    Directives.get(() -> Directives.extractRequest(request -> controller.status()
                            .map(s -> json(StatusCodes.OK, withoutNodePaths(s)))
                            .orElseGet(() -> json(StatusCodes.NOT_FOUND, Map.of("error", "no job yet"))))),
                    Directives.post(() -> allowed(settings.readOnly(), () -> Directives.withSizeLimit(maxBody,
                            () -> Directives.entity(Unmarshaller.entityToString(), this::submit))))));
        }

        /** Credentials were checked by the management server; a read-only node changes nothing whoever asks. */
        private Route allowed(boolean readOnly, Supplier<Route> inner) {
            if (readOnly) {
                return error(StatusCodes.FORBIDDEN, "this node's management routes are read-only "
                        + "(akka.management.http.route-providers-read-only = on): it starts and cancels no jobs");
            }
            return inner.get();
        }

        /** Any failure, {@code Error}s included, is answered: one left to Akka's dispatcher would end the node. */
        private Route submit(String body) {
            try {
                return json(StatusCodes.ACCEPTED, withoutNodePaths(controller.submit(TrainingJobSpec.fromNetwork(body, runsRoot, dataRoot, modelsRoot))));
            } catch (JsonProcessingException e) {
                return error(StatusCodes.BAD_REQUEST, "the body is not a job request: " + UntrustedJson.reason(e));
            } catch (JobController.Rejected e) {
                return error(e.conflict() ? StatusCodes.CONFLICT : StatusCodes.BAD_REQUEST, withoutNodePaths(e.getMessage()));
            } catch (IllegalArgumentException e) {
                return error(StatusCodes.BAD_REQUEST, withoutNodePaths(e.getMessage()));
            } catch (Throwable t) {
                LOG.error("a job submission failed", t);
                return error(StatusCodes.INTERNAL_SERVER_ERROR, "the job could not be submitted: " + t.getClass().getSimpleName());
            }
        }

        /**
         * A message as the network reads it: the node's folders named by their role ({@code <data>/mine.jsonl}), never by
         * their absolute paths, which tell a client how the node is laid out.
         */
        String withoutNodePaths(String message) {
            if (message == null) return null;
            String out = message;
            // the longest first, so a folder inside another is named by its own role
            for (Map.Entry<Path, String> root : Map.of(runsRoot, "<runs>", dataRoot, "<data>", modelsRoot, "<models>").entrySet().stream()
                    .sorted(Comparator.comparingInt((Map.Entry<Path, String> e) -> e.getKey().toAbsolutePath().normalize().toString().length())
                            .reversed()).toList()) {
                out = out.replace(root.getKey().toAbsolutePath().normalize().toString(), root.getValue());
            }
            return out;
        }

        private JobStatus withoutNodePaths(JobStatus s) {
            return new JobStatus(s.name(), s.task(), s.state(), s.phase(), s.totalSteps(), s.lastStep(), s.evaluations(),
                    s.heldOut(), withoutNodePaths(s.error()));
        }

        private static Route error(StatusCode status, String message) {
            return json(status, Map.of("error", message));
        }

        private static Route json(StatusCode status, Object body) {
            try {
                return Directives.complete(status, HttpEntities.create(ContentTypes.APPLICATION_JSON, JSON.writeValueAsString(body)));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a job status cannot be written as JSON", e);
            }
        }
    }
}
