package dev.toolcoach.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code deploy/monitoring} checked by Prometheus's own {@code promtool} (Debian's {@code prometheus} package; `.ci/run`
 * installs it): the local configuration and the alert rules parse, and each alert fires on the series it must and stays
 * silent on the others ({@code alerts-test.yml}). Debian builds Prometheus without Kubernetes discovery, so the
 * Kubernetes configuration is checked here only as YAML naming the same rules.
 */
class MonitoringRulesTest {

    private static final Path MONITORING = DeployFiles.deployDir().resolve("monitoring");

    private static String promtool(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("promtool"));
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).directory(MONITORING.toFile()).redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            throw new AssertionError("promtool is not installed (Debian: apt-get install prometheus)", e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "promtool " + String.join(" ", args) + " did not end");
        assertEquals(0, p.exitValue(), "promtool " + String.join(" ", args) + ":\n" + out);
        return out;
    }

    @Test
    void theConfigurationAndTheRulesParse() throws Exception {
        assertTrue(promtool("check", "config", "prometheus.yml").contains("SUCCESS: 1 rule files found"));
        assertTrue(promtool("check", "rules", "alerts.yml").contains("SUCCESS: 10 rules found"));
    }

    @Test
    void eachAlertFiresOnItsSeriesAndOnlyThere() throws Exception {
        assertTrue(promtool("test", "rules", "alerts-test.yml").contains("SUCCESS"));
    }

    @Test
    void theKubernetesConfigurationFindsTheManagementPortsAndLoadsTheSameRules() throws Exception {
        JsonNode k8s = new ObjectMapper(new YAMLFactory()).readTree(MONITORING.resolve("prometheus-k8s.yml").toFile());
        assertEquals("alerts.yml", k8s.get("rule_files").get(0).asText());
        JsonNode job = k8s.get("scrape_configs").get(0);
        assertEquals("pod", job.get("kubernetes_sd_configs").get(0).get("role").asText());
        assertTrue(job.get("relabel_configs").toString().contains("\"regex\":\"management\""), job.toString());
    }
}
