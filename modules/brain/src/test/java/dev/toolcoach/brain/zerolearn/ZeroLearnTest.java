package dev.toolcoach.brain.zerolearn;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.brain.FinanceTools;
import dev.toolcoach.brain.dataset.ExampleJsonl;
import dev.toolcoach.openai.BackendRequest;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.testkit.ScriptedServer;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.JsonLines;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Zero-Learn through the real OpenAI-compatible server and client, with a scripted model behind it. */
class ZeroLearnTest {

    private static final String MODEL = "scripted-generator";
    private static final List<ToolSpec> TOOLS = FinanceTools.specs();
    @RegisterExtension
    private static final ScriptedServer server = ScriptedServer.start(MODEL);

    @BeforeEach
    void resetScript() {
        server.backend().reset();
    }

    static ZeroLearn zeroLearn() {
        return ZeroLearn.withDefaults(new OpenAiClient(OpenAiConfig.of(server.baseUrl(), MODEL)));
    }

    static String query(String q, String gold, String calls) {
        return "{\"query\": \"" + q + "\", \"gold_answer\": " + (gold == null ? "null" : "\"" + gold + "\"")
                + ", \"tool_calls\": [" + calls + "]}";
    }

    static final String GROW = "{\"name\": \"compound_interest\", \"arguments\": {\"principal\": 1000, \"annual_rate\": 0.05, \"years\": 10}}";
    static final String RATE = "{\"name\": \"cagr\", \"arguments\": {\"start_value\": 1000, \"end_value\": 1628.89, \"years\": 10}}";
    static final String A = query("Grow $1000 at 5% for 10 years, then give the CAGR.", "4.99%", GROW + "," + RATE);
    static final String B = query("Invest $2000 at 4% yearly for 5 years; what growth rate results?", null, GROW + "," + RATE);
    static final String C = query("What CAGR does $1000 reach after growing at 5% for 10 years?", "5%", GROW + "," + RATE);

    @Test
    void filtersCountsEveryRejectionAndRemovesDuplicates() {
        server.backend().reply("```json\n{\"queries\": [" + String.join(",",
                A,
                query("GROW $1000 at 5% for 10 years -- then give the CAGR!", null, GROW + "," + RATE),
                query("Please tell me in great detail and with many words how much money I will have after investing one thousand dollars for ten years", null, GROW + "," + RATE),
                query("Grow $1000 at 5% for 10 years.", null, GROW),
                query("Look up the stock price of ACME and compare it.", null, GROW + ",{\"name\": \"stock_price\", \"arguments\": {}}"),
                query("Grow money at 5% and then get its CAGR.", null, "{\"name\": \"compound_interest\", \"arguments\": {\"annual_rate\": 0.05}}," + RATE),
                "{\"question\": \"no query field\"}",
                B) + "]}\n```");
        server.backend().reply("Sorry, I cannot help with that.");
        server.backend().reply("{\"queries\": [" + C + "," + query("Start at $500, grow at 3% for 4 years, then the CAGR?", null, GROW + "," + RATE) + "]}");

        ZeroLearnResult result = zeroLearn().generateTrainingExamples("Answer investment questions", 3, 2, 20,
                "If I invest $100 at 2% for 3 years, what is the CAGR?", TOOLS, false);

        assertEquals(List.of("Grow $1000 at 5% for 10 years, then give the CAGR.",
                "Invest $2000 at 4% yearly for 5 years; what growth rate results?",
                "What CAGR does $1000 reach after growing at 5% for 10 years?"),
                result.examples().stream().map(TaskExample::query).toList());
        assertEquals(Map.of(Rejection.MALFORMED_REPLY, 1, Rejection.MALFORMED_ENTRY, 1, Rejection.TOO_MANY_WORDS, 1,
                Rejection.TOO_FEW_TOOL_CALLS, 1, Rejection.UNKNOWN_TOOL, 1, Rejection.INVALID_ARGUMENTS, 1,
                Rejection.DUPLICATE, 1, Rejection.SURPLUS, 1), result.rejected());
        assertEquals(3, result.generationReplies());
        assertFalse(result.ranked());

        TaskExample first = result.examples().get(0);
        assertEquals("4.99%", first.goldAnswer());
        assertEquals(TOOLS, first.tools());
        assertEquals(2, ((List<?>) first.gold().get("intended_calls")).size());
        assertEquals("", result.examples().get(1).goldAnswer());
        assertEquals(false, result.examples().get(1).gold().get("has_gold_answer"));

        // the prompt carries the full specifications and the bounds; later rounds ask only for what is missing
        List<BackendRequest> requests = server.backend().requests();
        String prompt = requests.get(0).messages().get(1).content();
        for (ToolSpec t : TOOLS) {
            assertTrue(prompt.contains(t.name()) && prompt.contains(t.description()), t.name());
            t.parameterNames().forEach(p -> assertTrue(prompt.contains("\"" + p + "\""), p));
        }
        assertTrue(prompt.contains("at least 2 tool call") && prompt.contains("at most 20 words"), prompt);
        assertTrue(prompt.contains("If I invest $100 at 2% for 3 years"), prompt);
        assertTrue(requests.get(0).jsonReply());
        assertTrue(requests.get(2).messages().get(1).content().contains("Write 1 different"));
    }

    @Test
    void selfRankOrdersTheKeptQueries() {
        server.backend().reply("{\"queries\": [" + A + "," + B + "," + C + "]}");
        server.backend().reply("Here is my ranking: {\"ranking\": [2, \"0\", 1]}");

        ZeroLearnResult result = zeroLearn().generateTrainingExamples("Answer investment questions", 3, 2, 20,
                null, TOOLS, true);

        assertTrue(result.ranked());
        assertEquals(0, result.unusableRankings());
        assertEquals(List.of("What CAGR does $1000 reach after growing at 5% for 10 years?",
                "Grow $1000 at 5% for 10 years, then give the CAGR.",
                "Invest $2000 at 4% yearly for 5 years; what growth rate results?"),
                result.examples().stream().map(TaskExample::query).toList());
        assertEquals(List.of(1, 2, 3), result.examples().stream().map(e -> e.gold().get("rank")).toList());
        String rankPrompt = server.backend().requests().get(1).messages().get(1).content();
        assertTrue(rankPrompt.contains("2. What CAGR") && rankPrompt.contains("compound_interest"), rankPrompt);
    }

    @Test
    void unusableRankingsAreRetriedThenTheUnrankedOrderIsKept() {
        server.backend().reply("{\"queries\": [" + A + "," + B + "," + C + "]}");
        server.backend().reply("{\"ranking\": [0, 0, 1]}");      // ranks one query twice
        server.backend().reply("{\"ranking\": [0, 1]}");         // leaves one out

        ZeroLearnResult result = zeroLearn().generateTrainingExamples("Answer investment questions", 3, 2, 20,
                null, TOOLS, true);

        assertFalse(result.ranked());
        assertEquals(2, result.unusableRankings());
        assertEquals(3, server.backend().requests().size());
        assertEquals("Grow $1000 at 5% for 10 years, then give the CAGR.", result.examples().get(0).query());
        assertFalse(result.examples().get(0).gold().containsKey("rank"));
    }

    @Test
    void stopsAfterMaxRepliesWhenTheModelNeverAnswersInJson() {
        server.backend().reply("no").reply("still no").reply("{\"items\": []}");

        ZeroLearnResult result = zeroLearn().generateTrainingExamples("Answer investment questions", 2, 1, 20,
                null, TOOLS, true);

        assertTrue(result.examples().isEmpty());
        assertTrue(result.shortOf(2));
        assertEquals(3, result.rejected(Rejection.MALFORMED_REPLY));
        assertEquals(3, server.backend().requests().size()); // nothing to rank, so no ranking request
    }

    @Test
    void outputIsAJsonLinesDatasetThatReadsBack(@TempDir Path dir) throws Exception {
        server.backend().reply("{\"queries\": [" + A + "," + B + "]}");
        ZeroLearnResult result = zeroLearn().generateTrainingExamples("Answer investment questions", 2, 2, 20,
                null, TOOLS, false);
        Path file = dir.resolve("generated.jsonl");
        ExampleJsonl.write(file, result.examples());
        Files.writeString(file, Files.readString(file) + "{\"id\": \"x\", \"messages\": []}\nnot json\n");

        JsonLines.Read<TaskExample> read = ExampleJsonl.read(file);

        assertEquals(result.examples(), read.items());
        assertEquals(List.of(3, 4), read.skipped().stream().map(JsonLines.SkippedLine::lineNumber).toList());
        assertTrue(read.skipped().get(0).reason().equals("no \"messages\" (or \"query\")"), read.skipped().get(0).reason());
        assertTrue(Files.readString(file).contains("\"gold_answer\":\"4.99%\""));
    }
}
