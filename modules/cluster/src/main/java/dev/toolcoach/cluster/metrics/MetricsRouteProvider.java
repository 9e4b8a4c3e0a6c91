package dev.toolcoach.cluster.metrics;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.ExtensionIdProvider;
import akka.http.javadsl.model.ContentTypes;
import akka.http.javadsl.model.HttpEntities;
import akka.http.javadsl.server.Directives;
import akka.http.javadsl.server.Route;
import akka.management.javadsl.ManagementRouteProvider;
import akka.management.javadsl.ManagementRouteProviderSettings;

/**
 * Adds {@code GET /metrics} to the Akka Management HTTP server. Named in
 * {@code akka.management.http.routes}; Akka Management instantiates it and asks for the extension.
 */
public final class MetricsRouteProvider extends AbstractExtensionId<MetricsRouteProvider.MetricsRoutes>
        implements ExtensionIdProvider {

    private static final MetricsRouteProvider INSTANCE = new MetricsRouteProvider();

    @Override
    public MetricsRouteProvider lookup() {
        return INSTANCE;
    }

    @Override
    public MetricsRoutes createExtension(ExtendedActorSystem system) {
        return new MetricsRoutes(ToolCoachMetrics.get(system));
    }

    /** The {@code /metrics} route. */
    public static final class MetricsRoutes implements ManagementRouteProvider {
        private final ToolCoachMetrics metrics;

        MetricsRoutes(ToolCoachMetrics metrics) {
            this.metrics = metrics;
        }

        @Override
        public Route routes(ManagementRouteProviderSettings settings) {
            // the extractRequest function runs for every request, so each GET renders a fresh scrape
            return Directives.path("metrics", () -> Directives.get(() -> Directives.extractRequest(request ->
                    Directives.complete(HttpEntities.create(ContentTypes.parse(PrometheusText.CONTENT_TYPE),
                            PrometheusText.scrape(metrics.registry()))))));
        }
    }
}
