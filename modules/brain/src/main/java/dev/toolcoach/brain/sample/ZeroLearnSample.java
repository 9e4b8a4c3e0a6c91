package dev.toolcoach.brain.sample;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.brain.cli.GenerateTasksCommand;
import dev.toolcoach.brain.dataset.ExampleJsonl;
import dev.toolcoach.openai.BackendRequest;
import dev.toolcoach.openai.OpenAiServer;
import dev.toolcoach.openai.ServerSettings;
import dev.toolcoach.testkit.ScriptedBackend;
import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.trace.ToolCall;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Runs {@code generate-tasks} for the finance tools through the real OpenAI-compatible server and
 * client, and prints the 20 queries it keeps.
 *
 * <p>No large model can run here, so the server hosts a scripted backend, and the queries are NOT
 * written by a language model: each generation reply lists questions from the tasks module's finance
 * generator ({@link FinanceTask}, with its gold answers and oracle calls as the intended calls), two
 * more than asked for; the ranking reply orders queries by number of intended calls, most first.
 * What is real is the path: prompt from the tool specs, HTTP, JSON parsing, filtering, dedupe,
 * ranking, and the JSON Lines dataset.
 */
public final class ZeroLearnSample {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ASKED = Pattern.compile("Write (\\d+) different user queries");
    private static final Pattern LISTED = Pattern.compile("(?m)^(\\d+)\\. .*\\n\\s+intended calls: (.*)$");

    private ZeroLearnSample() {
    }

    public static void main(String[] args) {
        // DJL is on the classpath (through the learner); it must never reach the network
        System.setProperty("DJL_OFFLINE", "true");
        System.setProperty("OPT_OUT_TRACKING", "true");
        Path out = Path.of(args.length > 0 ? args[0] : "target/zero-learn-sample.jsonl");
        int code = run(out, 20);
        if (code == 0) {
            List<TaskExample> examples = ExampleJsonl.read(out).items();
            System.out.println("backend: scripted (queries from the tasks module's FinanceTask generator, not a language model)");
            examples.forEach(e -> System.out.println(e.gold().get("rank") + ". " + e.query() + "  [gold: " + e.goldAnswer() + "]"));
        }
        System.exit(code);
    }

    /** Serves the scripted backend, runs the command against it, and returns the command's exit code. */
    public static int run(Path out, int count) {
        ScriptedBackend backend = new ScriptedBackend("finance-scripted").replyWith(ZeroLearnSample::generationReply)
                .replyWith(ZeroLearnSample::rankingReply);
        try (OpenAiServer server = OpenAiServer.start(backend, ServerSettings.loopback(0))) {
            return new CommandLine(new GenerateTasksCommand()).execute("--base-url", server.baseUrl(),
                    "--model", backend.modelId(), "--tools", "finance", "--num-examples", String.valueOf(count),
                    "--min-tool-calls", "1", "--max-words", "30", "--self-rank", "--out", out.toString(),
                    "--task-description", "Answer personal-finance questions (interest, loans, growth rates, NPV) with the finance tools");
        }
    }

    private static String generationReply(BackendRequest request) {
        Matcher m = ASKED.matcher(lastUserMessage(request));
        int asked = m.find() ? Integer.parseInt(m.group(1)) : 1;
        ObjectNode root = JSON.createObjectNode();
        ArrayNode queries = root.putArray("queries");
        for (TaskExample e : FinanceTask.create(asked + 2, 2026L).examples()) {
            ObjectNode q = queries.addObject();
            q.put("query", e.query());
            q.put("gold_answer", e.goldAnswer());
            ArrayNode calls = q.putArray("tool_calls");
            for (OracleStep step : e.solution()) {
                for (ToolCall c : step.calls()) {
                    calls.addObject().put("name", c.name()).set("arguments", JSON.valueToTree(c.arguments()));
                }
            }
        }
        return root.toString();
    }

    private static String rankingReply(BackendRequest request) {
        List<int[]> listed = new ArrayList<>(); // {index, number of calls}
        Matcher m = LISTED.matcher(lastUserMessage(request));
        while (m.find()) listed.add(new int[] {Integer.parseInt(m.group(1)), m.group(2).split("; ").length});
        List<Integer> order = IntStream.range(0, listed.size()).boxed()
                .sorted(Comparator.<Integer>comparingInt(i -> -listed.get(i)[1]).thenComparingInt(i -> i))
                .map(i -> listed.get(i)[0]).toList();
        ObjectNode root = JSON.createObjectNode();
        order.forEach(root.putArray("ranking")::add);
        return root.toString();
    }

    private static String lastUserMessage(BackendRequest request) {
        return request.messages().get(request.messages().size() - 1).content();
    }
}
