package dev.toolcoach.cluster.node;

import com.typesafe.config.Config;
import dev.toolcoach.tools.codeact.SandboxLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodeConfigLoaderTest {

    @TempDir
    Path dir;

    @Test
    void defaultsBindLoopbackAndTakeTheProgramsRoles() {
        NodeSettings settings = NodeSettings.fromConfig(NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(), Map.of()));
        assertEquals(Set.of(NodeRole.COACH, NodeRole.LEARNER), settings.roles());
        assertEquals("127.0.0.1", settings.host());
        assertEquals("127.0.0.1", settings.managementHost());
        assertTrue(settings.seeds().isEmpty(), "a coach without seeds joins itself");
        assertFalse(settings.bootstrap());
    }

    @Test
    void commandLineBeatsEnvironmentBeatsFileBeatsDefaults() throws IOException {
        Path file = dir.resolve("node.conf");
        Files.writeString(file, """
                akka.remote.artery.canonical.port = 3001
                akka.management.http.port = 4001
                akka.cluster.seed-nodes = ["akka://ToolCoach@127.0.0.1:3000"]
                toolcoach.athlete.actors-per-node = 5
                """);
        Map<String, String> env = Map.of("TOOLCOACH_CONFIG", file.toString(), "TOOLCOACH_PORT", "3002",
                "TOOLCOACH_MANAGEMENT_PORT", "4002");
        NodeOverrides cli = new NodeOverrides(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(3003),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(List.of("finance")));
        Config config = NodeConfigLoader.load(NodeProgram.ATHLETE, cli, env);
        NodeSettings settings = NodeSettings.fromConfig(config);
        assertEquals(3003, settings.port(), "command line wins");
        assertEquals(4002, settings.managementPort(), "environment beats the file");
        assertEquals(5, settings.athleteActors(), "file beats defaults");
        assertEquals("127.0.0.1", settings.seeds().get(0).host().get());
        assertEquals(List.of("finance"), settings.toolSuites());
        assertEquals(Set.of(NodeRole.ATHLETE), settings.roles());
    }

    @Test
    void theDeviceComesFromTheCommandLineTheEnvironmentOrTheFileAndIsTheCpuByDefault() throws IOException {
        assertEquals("cpu", NodeSettings.fromConfig(NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(), Map.of())).device());
        Path file = dir.resolve("gpu.conf");
        Files.writeString(file, "toolcoach.device = \"cuda:1\"\n");
        assertEquals("cuda:1", NodeSettings.fromConfig(NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(),
                Map.of("TOOLCOACH_CONFIG", file.toString()))).device());
        assertEquals("cuda", NodeSettings.fromConfig(NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(),
                Map.of("TOOLCOACH_CONFIG", file.toString(), "TOOLCOACH_DEVICE", "cuda"))).device());
        NodeOverrides cli = new NodeOverrides(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of("cpu"), Optional.empty());
        assertEquals("cpu", NodeSettings.fromConfig(NodeConfigLoader.load(NodeProgram.COACH, cli, Map.of("TOOLCOACH_DEVICE", "cuda"))).device());
        Config bad = NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(), Map.of("TOOLCOACH_DEVICE", "cuda:x"));
        NodeConfigException e = assertThrows(NodeConfigException.class, () -> NodeSettings.fromConfig(bad));
        assertEquals("toolcoach.device: unknown device 'cuda:x' (use cpu, cuda or cuda:N)", e.getMessage());
    }

    @Test
    void thePrecisionComesFromTheCommandLineTheEnvironmentOrTheFileAndIsAutoByDefault() throws IOException {
        assertEquals("auto", NodeSettings.fromConfig(NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(), Map.of())).precision());
        Path file = dir.resolve("half.conf");
        Files.writeString(file, "toolcoach.precision = \"f16\"\n");
        assertEquals("f16", NodeSettings.fromConfig(NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(),
                Map.of("TOOLCOACH_CONFIG", file.toString()))).precision());
        assertEquals("bf16", NodeSettings.fromConfig(NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(),
                Map.of("TOOLCOACH_CONFIG", file.toString(), "TOOLCOACH_PRECISION", "bf16"))).precision());
        NodeOverrides cli = new NodeOverrides(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.of("f32"));
        assertEquals("f32", NodeSettings.fromConfig(NodeConfigLoader.load(NodeProgram.COACH, cli, Map.of("TOOLCOACH_PRECISION", "bf16"))).precision());
        Config bad = NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(), Map.of("TOOLCOACH_PRECISION", "fp8"));
        NodeConfigException e = assertThrows(NodeConfigException.class, () -> NodeSettings.fromConfig(bad));
        assertEquals("toolcoach.precision: unknown precision 'fp8' (use auto, f32, f16 or bf16)", e.getMessage());
    }

    @Test
    void theCodeActionSandboxComesFromTheFileAndABadLimitIsOneLineNamingIt() throws IOException {
        CodeActSettings defaults = NodeSettings.fromConfig(NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(), Map.of())).codeAct();
        assertEquals(SandboxLimits.defaults(), defaults.limits());
        assertEquals(Path.of("/usr/bin/python3"), defaults.python());
        Path file = dir.resolve("sandbox.conf");
        Files.writeString(file, "toolcoach.code-act { cpu-time = 3s, wall-time = 5s, memory = 256MiB, max-tool-calls = 4 }\n");
        SandboxLimits limits = NodeSettings.fromConfig(NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(),
                Map.of("TOOLCOACH_CONFIG", file.toString()))).codeAct().limits();
        assertEquals(new SandboxLimits(3, Duration.ofSeconds(5), 256L << 20, 8, 1L << 20, 16L << 20, 4, 16), limits);

        Files.writeString(file, "toolcoach.code-act.memory = 1MiB\n");
        Config tooSmall = NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(), Map.of("TOOLCOACH_CONFIG", file.toString()));
        assertEquals("toolcoach.code-act: memoryBytes must be at least 64 MiB for Python to start",
                assertThrows(NodeConfigException.class, () -> NodeSettings.fromConfig(tooSmall)).getMessage());
        Files.writeString(file, "toolcoach.code-act.wall-time = soon\n");
        Config notADuration = NodeConfigLoader.load(NodeProgram.COACH, NodeOverrides.none(), Map.of("TOOLCOACH_CONFIG", file.toString()));
        assertTrue(assertThrows(NodeConfigException.class, () -> NodeSettings.fromConfig(notADuration)).getMessage()
                .contains("code-act.wall-time"));
    }

    @Test
    void aNodeWithoutCoachRoleNeedsSeeds() {
        Config config = NodeConfigLoader.load(NodeProgram.TOOL, NodeOverrides.none(), Map.of());
        NodeConfigException e = assertThrows(NodeConfigException.class, () -> NodeSettings.fromConfig(config));
        assertTrue(e.getMessage().startsWith("no seed node given"), e.getMessage());
    }

    @Test
    void seedAddressesAreChecked() {
        for (String bad : List.of("127.0.0.1:2552", "akka://ToolCoach@127.0.0.1", "akka://Other@127.0.0.1:2552",
                "akka://ToolCoach@127.0.0.1:99999", "http://ToolCoach@127.0.0.1:2552")) {
            NodeConfigException e = assertThrows(NodeConfigException.class, () -> SeedAddress.parse(bad), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
        assertEquals(25520, SeedAddress.parse("akka://ToolCoach@10.0.0.7:25520").port().get());
    }

    @Test
    void environmentNumbersAreChecked() {
        NodeConfigException e = assertThrows(NodeConfigException.class,
                () -> EnvironmentOverrides.from(Map.of("TOOLCOACH_PORT", "twelve")));
        assertEquals("environment variable TOOLCOACH_PORT='twelve' is not a number", e.getMessage());
    }
}
