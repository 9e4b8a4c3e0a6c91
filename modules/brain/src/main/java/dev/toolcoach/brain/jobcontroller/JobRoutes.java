package dev.toolcoach.brain.jobcontroller;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import akka.http.javadsl.model.ContentTypes;
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
import dev.toolcoach.brain.taskjob.JobRequest;

import java.util.Map;

/**
 * {@code POST /jobs} (a JSON {@link JobRequest}) starts a task training job on the coach node: 202 with the
 * job's status, 400 for a bad request, 409 while another job runs. {@code GET /jobs} shows the current or last
 * job (404 before any). {@code POST /jobs/{name}/cancel} cancels the running job of that name: 202 with its status,
 * 404 when no job of that name runs. Named in {@code akka.management.http.routes}; Akka Management asks it for its extension.
 */
public final class JobRoutes extends AbstractExtensionId<JobRoutes.Routes> implements ExtensionIdProvider {

    private static final JobRoutes INSTANCE = new JobRoutes();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public JobRoutes lookup() {
        return INSTANCE;
    }

    @Override
    public Routes createExtension(ExtendedActorSystem system) {
        return new Routes(JobController.ID.get(system));
    }

    /** The {@code /jobs} routes over the node's job controller. */
    public static final class Routes implements Extension, ManagementRouteProvider {
        private final JobController controller;

        Routes(JobController controller) {
            this.controller = controller;
        }

        @Override
        public Route routes(ManagementRouteProviderSettings settings) {
            return Directives.concat(Directives.path(PathMatchers.segment("jobs").slash(PathMatchers.segment()).slash("cancel"),
                    name -> Directives.post(() -> controller.cancel(name)
                            .map(s -> json(StatusCodes.ACCEPTED, s))
                            .orElseGet(() -> json(StatusCodes.NOT_FOUND, Map.of("error", "no job named '" + name + "' is running"))))),
                    jobsRoute());
        }

        private Route jobsRoute() {
            return Directives.path("jobs", () -> Directives.concat(
                    Directives.get(() -> Directives.extractRequest(request -> controller.status()
                            .map(s -> json(StatusCodes.OK, s))
                            .orElseGet(() -> json(StatusCodes.NOT_FOUND, Map.of("error", "no job yet"))))),
                    Directives.post(() -> Directives.entity(Unmarshaller.entityToString(), body -> {
                        try {
                            return json(StatusCodes.ACCEPTED, controller.submit(JSON.readValue(body, JobRequest.class)));
                        } catch (JsonProcessingException e) {
                            return json(StatusCodes.BAD_REQUEST, Map.of("error", "the body is not a job request: " + e.getOriginalMessage()));
                        } catch (JobController.Rejected e) {
                            return json(e.conflict() ? StatusCodes.CONFLICT : StatusCodes.BAD_REQUEST, Map.of("error", e.getMessage()));
                        }
                    }))));
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
