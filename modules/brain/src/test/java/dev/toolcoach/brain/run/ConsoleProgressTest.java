package dev.toolcoach.brain.run;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsoleProgressTest {

    @Test
    void offATerminalAShortPieceOfWorkIsOneLineWithItsCountElapsedTimeAndRate() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Progress progress = new ConsoleProgress("finance", out, false);
        try (Progress.Meter meter = progress.start("evaluate", 4, "examples")) {
            for (int i = 0; i < 4; i++) meter.step();
        }
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        // a line as the work starts, one per 30 s (none in a run this short) and one when it ends: no redraws in a log
        assertTrue(lines.size() <= 2, lines.toString());
        assertEquals(1, lines.stream().filter(l -> l.contains(" 100% ")).count(), lines.toString());
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith("[finance] evaluate 100%"), last);
        assertTrue(last.contains("4/4 examples") && last.contains("examples/s") && last.contains("(0:00:0"), last);
        assertTrue(lines.stream().noneMatch(l -> l.contains("\r")), "no carriage returns off a terminal");
    }
}
