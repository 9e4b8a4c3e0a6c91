package dev.toolcoach.cluster.metrics;

import akka.cluster.Cluster;
import akka.cluster.Member;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.Map;
import java.util.TreeMap;

/** Cluster members by role and status, read from this node's view of the membership at scrape time. */
final class ClusterMembersGauge {

    private ClusterMembersGauge() {
    }

    static void register(PrometheusRegistry registry, Cluster cluster) {
        GaugeWithCallback.builder().name("toolcoach_cluster_members")
                .help("Cluster members seen by this node, by role and member status")
                .labelNames("role", "status")
                .callback(callback -> countByRoleAndStatus(cluster.state().getMembers())
                        .forEach((key, count) -> callback.call(count, key.role(), key.status())))
                .register(registry);
    }

    static Map<RoleStatus, Integer> countByRoleAndStatus(Iterable<Member> members) {
        Map<RoleStatus, Integer> counts = new TreeMap<>();
        for (Member member : members) {
            for (String role : member.getRoles()) {
                if (!role.startsWith("dc-")) { // Akka adds a data-center pseudo role to every member
                    counts.merge(new RoleStatus(role, member.status().toString()), 1, Integer::sum);
                }
            }
        }
        return counts;
    }

    record RoleStatus(String role, String status) implements Comparable<RoleStatus> {
        @Override
        public int compareTo(RoleStatus o) {
            int c = role.compareTo(o.role);
            return c != 0 ? c : status.compareTo(o.status);
        }
    }
}
