package dev.toolcoach.coachnode;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The program's logging: DJL's GPU probe stays off the console but reaches the log file; other warnings reach both. */
class LoggingConfigTest {

    @Test
    void theCudaProbeStaysOffTheConsoleAndInTheLogFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("node.log");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream err = System.err;
        LoggerContext context = new LoggerContext();
        try {
            System.setErr(new PrintStream(console, true, StandardCharsets.UTF_8));
            context.putProperty("TOOLCOACH_LOG_FILE", file.toString());
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(LoggingConfigTest.class.getClassLoader().getResource(CoachNodeMain.LOGBACK_CONFIG));
            context.getLogger("ai.djl.util.cuda.CudaUtils").warn("Failed to detect GPU count: CUDA driver version is insufficient");
            context.getLogger("ai.djl.util.cuda.CudaUtils").error("a real CUDA failure");
            context.getLogger("dev.toolcoach.brain.run.RunRecorder").warn("a torn line was cut off");
        } finally {
            context.stop();
            System.setErr(err);
        }
        String shown = console.toString(StandardCharsets.UTF_8);
        assertFalse(shown.contains("Failed to detect GPU count"), shown);
        assertTrue(shown.contains("a real CUDA failure") && shown.contains("a torn line was cut off"), shown);
        String logged = Files.readString(file);
        assertTrue(logged.contains("Failed to detect GPU count") && logged.contains("a torn line was cut off"), logged);
    }
}
