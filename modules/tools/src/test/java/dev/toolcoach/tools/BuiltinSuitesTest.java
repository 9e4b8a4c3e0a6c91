package dev.toolcoach.tools;

import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BuiltinSuitesTest {

    @TempDir
    Path dir;

    private static ToolResult call(BuiltinSuites.Hosted hosted, String tool, Map<String, Object> arguments) throws Exception {
        try (ToolExecutor executor = new ToolExecutor(hosted.suite(), ExecutorSettings.defaults())) {
            return executor.call("t", new ToolCall(tool, arguments)).get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void everyBuiltInSuiteOpensByNameAndServesCalls() throws Exception {
        Path mbox = Files.writeString(dir.resolve("one.mbox"), "From a@x Mon May 14 16:39:00 2001\nMessage-ID: <m1@x>\n"
                + "Date: Mon, 14 May 2001 16:39:00 -0700\nFrom: a@x.org\nTo: b@x.org\nSubject: budget\n\nThe budget is final.\n");
        BuiltinSuites.Options options = BuiltinSuites.Options.defaults().withMailboxes(List.of(mbox));
        try (var arithmetic = BuiltinSuites.open("arithmetic", options);
             var finance = BuiltinSuites.open("finance", options);
             var sql = BuiltinSuites.open("sql", options);
             var email = BuiltinSuites.open("email", options)) {
            assertEquals("3", call(arithmetic, "add", Map.of("a", 1, "b", 2)).text());
            assertEquals("0.148698", call(finance, "cagr", Map.of("start_value", 100, "end_value", 200, "years", 5)).text());
            assertTrue(call(sql, "run_sql", Map.of("query", "SELECT COUNT(*) AS n FROM employees")).text().startsWith("n\n12\n"));
            assertTrue(call(email, "search_emails", Map.of("keywords", "budget")).text().contains("message_id: m1@x"));
        }
    }

    @Test
    void unknownSuiteAndEmailOrHpoWithoutDataFailClearly() {
        assertEquals("no built-in tool suite named 'weather'; built-in suites: [arithmetic, finance, email, sql, hpo]",
                assertThrows(IllegalArgumentException.class,
                        () -> BuiltinSuites.open("weather", BuiltinSuites.Options.defaults())).getMessage());
        assertEquals("the email suite needs at least one mailbox (an mbox file, a maildir or a CSV)",
                assertThrows(IllegalArgumentException.class,
                        () -> BuiltinSuites.open("email", BuiltinSuites.Options.defaults())).getMessage());
        assertEquals("the hpo suite needs the folder of its datasets (the shared data's hpo/)",
                assertThrows(IllegalArgumentException.class,
                        () -> BuiltinSuites.open("hpo", BuiltinSuites.Options.defaults())).getMessage());
    }
}
