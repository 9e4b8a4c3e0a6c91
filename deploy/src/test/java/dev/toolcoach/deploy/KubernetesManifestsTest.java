package dev.toolcoach.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.cluster.node.NodeConfigLoader;
import dev.toolcoach.cluster.node.NodeOverrides;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeRole;
import dev.toolcoach.cluster.node.NodeSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Kubernetes manifests parse as YAML and fit together (they cannot be applied here). */
class KubernetesManifestsTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String SHARED = "/var/lib/toolcoach";
    private static final String KEY_STORE = "/etc/toolcoach/tls/node.p12";
    private static final List<JsonNode> resources = new ArrayList<>();

    @BeforeAll
    static void load() throws IOException {
        try (Stream<Path> files = Files.list(DeployFiles.deployDir().resolve("k8s"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                YAML.readValues(YAML.getFactory().createParser(file.toFile()), JsonNode.class)
                        .readAll().stream().filter(doc -> !doc.isNull()).forEach(resources::add);
            }
        }
    }

    private static List<JsonNode> ofKind(String kind) {
        return resources.stream().filter(r -> kind.equals(r.path("kind").asText())).toList();
    }

    private static JsonNode named(String kind, String name) {
        return ofKind(kind).stream().filter(r -> name.equals(r.at("/metadata/name").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " named " + name));
    }

    @Test
    void everyResourceHasApiVersionKindNameAndTheAppLabel() {
        assertEquals(Map.of("ServiceAccount", 1L, "Role", 1L, "RoleBinding", 1L, "ConfigMap", 1L, "Deployment", 3L,
                        "NetworkPolicy", 2L, "PersistentVolumeClaim", 1L),
                resources.stream().collect(Collectors.groupingBy(r -> r.path("kind").asText(), Collectors.counting())));
        for (JsonNode r : resources) {
            assertFalse(r.path("apiVersion").asText().isEmpty(), r.toString());
            assertFalse(r.at("/metadata/name").asText().isEmpty(), r.toString());
            assertEquals("toolcoach", r.at("/metadata/labels/app").asText(), r.at("/metadata/name").asText());
        }
    }

    @Test
    void deploymentsSelectTheirPodsAndProbeManagement() {
        Map<String, Integer> replicas = new HashMap<>();
        for (JsonNode deployment : ofKind("Deployment")) {
            String name = deployment.at("/metadata/name").asText();
            JsonNode podLabels = deployment.at("/spec/template/metadata/labels");
            deployment.at("/spec/selector/matchLabels").fields().forEachRemaining(label ->
                    assertEquals(label.getValue(), podLabels.get(label.getKey()), name + " selector matches its pods"));
            assertEquals("toolcoach", podLabels.path("app").asText(), "bootstrap discovers pods by app=toolcoach");
            JsonNode spec = deployment.at("/spec/template/spec");
            named("ServiceAccount", spec.path("serviceAccountName").asText());
            JsonNode container = spec.path("containers").get(0);
            assertEquals("/ready", container.at("/readinessProbe/httpGet/path").asText());
            assertEquals("/alive", container.at("/livenessProbe/httpGet/path").asText());
            assertEquals("management", container.at("/readinessProbe/httpGet/port").asText());
            Set<String> ports = new java.util.HashSet<>();
            container.path("ports").forEach(p -> ports.add(p.path("name").asText() + ":" + p.path("containerPort").asInt()));
            assertEquals(Set.of("remoting:25520", "management:8558"), ports);
            Map<String, JsonNode> env = new HashMap<>();
            container.path("env").forEach(e -> env.put(e.path("name").asText(), e));
            assertEquals("status.podIP", env.get("TOOLCOACH_HOST").at("/valueFrom/fieldRef/fieldPath").asText());
            assertEquals("true", env.get("DJL_OFFLINE").path("value").asText());
            String configDir = container.at("/volumeMounts/0/mountPath").asText();
            assertTrue(env.get("TOOLCOACH_CONFIG").path("value").asText().startsWith(configDir + "/"));
            named("ConfigMap", spec.at("/volumes/0/configMap/name").asText());
            assertEquals("toolcoach-tls", env.get("TOOLCOACH_TLS_PASSWORD").at("/valueFrom/secretKeyRef/name").asText());
            Map<String, JsonNode> volumes = new HashMap<>();
            spec.path("volumes").forEach(v -> volumes.put(v.path("name").asText(), v));
            Map<String, JsonNode> mounts = new HashMap<>();
            container.path("volumeMounts").forEach(m -> mounts.put(m.path("name").asText(), m));
            assertEquals("toolcoach-tls", volumes.get("tls").at("/secret/secretName").asText());
            assertEquals("/etc/toolcoach/tls", mounts.get("tls").path("mountPath").asText());
            named("PersistentVolumeClaim", volumes.get("shared").at("/persistentVolumeClaim/claimName").asText());
            assertEquals(SHARED, mounts.get("shared").path("mountPath").asText(), name + ": models and runs at one path everywhere");
            assertEquals(!name.equals("toolcoach-coach"), mounts.get("shared").path("readOnly").asBoolean(),
                    name + ": only the coach writes runs");
            replicas.put(podLabels.path("component").asText(), deployment.at("/spec/replicas").asInt());
        }
        assertEquals(Map.of("coach", 1, "athlete", 2, "tool", 1), replicas);
    }

    @Test
    void serviceAccountMayListPods() {
        JsonNode binding = named("RoleBinding", "toolcoach-read-pods");
        JsonNode role = named("Role", binding.at("/roleRef/name").asText());
        named("ServiceAccount", binding.at("/subjects/0/name").asText());
        JsonNode rule = role.at("/rules/0");
        assertEquals("pods", rule.at("/resources/0").asText());
        Set<String> verbs = new java.util.HashSet<>();
        rule.path("verbs").forEach(v -> verbs.add(v.asText()));
        assertTrue(verbs.containsAll(Set.of("get", "list", "watch")), verbs.toString());
    }

    @Test
    void configMapIsAValidNodeConfigThatJoinsThroughBootstrap() throws IOException {
        String hocon = named("ConfigMap", "toolcoach-config").at("/data/kubernetes.conf").asText();
        Path file = Files.createTempFile("kubernetes", ".conf");
        Path keyStore = Files.createTempFile("node", ".p12"); // stands in for the mounted Secret
        System.setProperty("TOOLCOACH_TLS_PASSWORD", "from-the-secret"); // as the environment gives it in the pod
        ConfigFactory.invalidateCaches();
        try {
            assertTrue(hocon.contains(KEY_STORE), "the key store is read from the Secret's mount");
            Files.writeString(file, hocon.replace(KEY_STORE, keyStore.toString()));
            Config config = NodeConfigLoader.load(NodeProgram.ATHLETE, NodeOverrides.none(),
                    Map.of("TOOLCOACH_CONFIG", file.toString(), "TOOLCOACH_HOST", "10.1.2.3"));
            assertEquals("tls-tcp", config.getString("akka.remote.artery.transport"), "Artery over TLS");
            assertEquals("from-the-secret", config.getString("akka.remote.artery.ssl.config-ssl-engine.key-store-password"));
            assertTrue(config.getBoolean("akka.remote.artery.ssl.config-ssl-engine.require-mutual-authentication"));
            assertTrue(config.getString("toolcoach.jobs.runs-dir").startsWith(SHARED + "/"), "runs on the shared volume");
            NodeSettings settings = NodeSettings.fromConfig(config);
            assertTrue(settings.bootstrap(), "no seeds needed: bootstrap on");
            assertEquals(Set.of(NodeRole.ATHLETE), settings.roles());
            assertEquals("10.1.2.3", settings.host());
            assertEquals("kubernetes-api", ConfigFactory.parseString(hocon)
                    .getString("akka.management.cluster.bootstrap.contact-point-discovery.discovery-method"));
        } finally {
            System.clearProperty("TOOLCOACH_TLS_PASSWORD");
            ConfigFactory.invalidateCaches();
            Files.delete(file);
            Files.delete(keyStore);
        }
    }

    @Test
    void onlyToolCoachPodsReachTheClusterPortsAndOnlyClientsTheCoachsManagement() {
        JsonNode members = named("NetworkPolicy", "toolcoach-members-only");
        assertEquals("toolcoach", members.at("/spec/podSelector/matchLabels/app").asText());
        assertEquals("toolcoach", members.at("/spec/ingress/0/from/0/podSelector/matchLabels/app").asText());
        Set<Integer> ports = new java.util.HashSet<>();
        members.at("/spec/ingress/0/ports").forEach(p -> ports.add(p.path("port").asInt()));
        assertEquals(Set.of(25520, 8558), ports);
        JsonNode clients = named("NetworkPolicy", "toolcoach-clients-to-coach");
        assertEquals("coach", clients.at("/spec/podSelector/matchLabels/component").asText());
        assertEquals(8558, clients.at("/spec/ingress/0/ports/0/port").asInt());
        assertEquals(1, clients.at("/spec/ingress/0/ports").size(), "clients reach management only");
        assertEquals("ReadWriteMany", named("PersistentVolumeClaim", "toolcoach-shared").at("/spec/accessModes/0").asText());
    }
}
