package dev.toolcoach.examples;

import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.brain.Brain;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.distill.DistillDataset;
import dev.toolcoach.brain.distill.DistillReport;
import dev.toolcoach.brain.distill.TeacherFactory;
import dev.toolcoach.brain.endpoint.ServedModel;
import dev.toolcoach.brain.eval.EvaluationReport;
import dev.toolcoach.brain.run.TrainingRun;
import dev.toolcoach.brain.zerolearn.ZeroLearnResult;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.openai.ChatMessage;
import dev.toolcoach.openai.ChatRequest;
import dev.toolcoach.openai.ChatResponse;
import dev.toolcoach.openai.GeneratorBackend;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.openai.OpenAiServer;
import dev.toolcoach.openai.ServerSettings;
import dev.toolcoach.openai.ToolDefinition;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.policy.NativeActionFormat;
import dev.toolcoach.tasks.Split;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * ToolBrain's workflow (Figure 2 of the paper) in Java, on the finance tools: generate training queries from the tools'
 * descriptions (Zero-Learn, a local model folder as the generator), distil a teacher into the student, train the student
 * with GRPO on a reward written as a lambda, evaluate it, and serve it over the OpenAI API.
 *
 * <pre>
 * java -cp examples.jar dev.toolcoach.examples.ToolBrainWorkflow GENERATOR_DIR TEACHER_DIR STUDENT_DIR WORK_DIR [STEPS]
 * </pre>
 * Each *_DIR is a Hugging Face model folder (the same folder may play several parts); the run writes under WORK_DIR.
 */
public final class ToolBrainWorkflow {

    /**
     * The user's own reward, written as a lambda over the trace: full marks for a correct answer, a quarter for each
     * tool call that ran without error (at most a half), nothing otherwise. Zero-Learn's queries have no gold answer, so
     * there only the tool part counts.
     */
    public static final TraceReward REWARD = (Trace trace, dev.toolcoach.tasks.RewardContext example) -> {
        if (example.goldAnswer() != null && !example.goldAnswer().isBlank() && trace.finalAnswer() != null
                && trace.finalAnswer().strip().equals(example.goldAnswer().strip())) {
            return 1.0;
        }
        long ok = trace.toolResults().stream().filter(ToolResult::ok).count();
        return Math.min(0.5, 0.25 * ok);
    };

    /** Where the models are and how much to do. */
    public record Settings(Path generator, Path teacher, Path student, Path workDir, int generatedQueries, int distillQueries,
                           int steps, long seed) {
    }

    /** What each phase produced. */
    public record Report(ZeroLearnResult generated, int trainingQueries, DistillReport distilled, TrainingRun.Result trained,
                         EvaluationReport evaluated, String servedReply) {
    }

    private ToolBrainWorkflow() {
    }

    public static void main(String[] args) {
        if (args.length < 4) {
            System.err.println("usage: ToolBrainWorkflow GENERATOR_DIR TEACHER_DIR STUDENT_DIR WORK_DIR [STEPS]");
            System.exit(2);
        }
        Settings settings = new Settings(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]), Path.of(args[3]), 8, 8,
                args.length > 4 ? Integer.parseInt(args[4]) : 10, 1);
        Report report = run(settings);
        System.out.printf("generated %d queries (%d rejected); trained on %d queries%n", report.generated().examples().size(),
                report.generated().rejected().values().stream().mapToInt(Integer::intValue).sum(), report.trainingQueries());
        System.out.printf("distilled: %d teacher traces, %d kept%n", report.distilled().collected(), report.distilled().keptCount());
        System.out.printf("trained: adapter version %d%n", report.trained().adapter().version());
        System.out.printf("evaluated: %s%n", report.evaluated());
        System.out.printf("served: %s%n", report.servedReply());
    }

    public static Report run(Settings s) {
        Task finance = FinanceTask.create(40, s.seed());
        Split split = finance.split(0.25, s.seed());

        // the agent: a student model, a built-in tool suite, the user's reward, GRPO
        Brain brain = Brain.builder()
                .model(s.student())
                .tool("finance")
                .traceReward("tools_then_answer", REWARD)
                .algorithm(Algorithm.GRPO)
                .config(TrainingConfig.builder().groupSize(4).groupsPerStep(2).athletes(4).seed(s.seed())
                        .rollouts(new RolloutSettings(1.0, 32, 2, 8192))
                        .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"))).learningRate(1e-3).build())
                .workDir(s.workDir())
                .build();

        // 1. Zero-Learn: training queries written by a generator model from the tools' descriptions
        ZeroLearnResult generated;
        try (ServedModel generator = new ServedModel(s.generator(), ComputeDevice.cpu())) {
            generated = Brain.generateTrainingExamples("Answer questions about money: interest, growth rates, loans.",
                    s.generatedQueries(), 1, 40, "What is the compound interest on 1000 at 5% over 3 years?",
                    generator.client(), brain.agentTools().specs(), false);
        }
        // the generated queries join the task's own training queries (whatever a small generator could not write)
        List<TaskExample> training = new ArrayList<>(generated.examples());
        training.addAll(split.train());

        // 2. distillation: a teacher model answers with the student's tools; its good traces train the student
        DistillReport distilled = brain.distill(DistillDataset.of(finance, split.train().subList(0, Math.min(s.distillQueries(),
                split.train().size()))), TeacherFactory.localModel(s.teacher(), ComputeDevice.cpu()), 0.5, 1, 4, LearnerConfig.defaults(1e-3));

        // 3. GRPO through the coach, athletes, tool servers and learner, rewarded by the lambda
        TrainingRun.Result trained = brain.train(training, s.steps());

        // 4. evaluation on held-out queries, scored by the same lambda
        EvaluationReport evaluated = brain.evaluate(split.test(), REWARD);

        // 5. serving: the trained adapter behind the OpenAI API
        brain.save(s.workDir().resolve("adapter"));
        String reply = serveAndAsk(brain.model(), s.workDir().resolve("adapter"), split.test().get(0).query(), brain.agentTools().specs());
        return new Report(generated, training.size(), distilled, trained, evaluated, reply);
    }

    /** What {@code coach-node serve --model MODEL --adapter ADAPTER} does, and one request to it. */
    private static String serveAndAsk(Path model, Path adapter, String question, List<ToolSpec> tools) {
        try (LocalPolicy policy = LocalPolicy.load(model, null, adapter, 1, ComputeDevice.cpu())) {
            GeneratorBackend backend = new GeneratorBackend("student", policy.generator(), policy.tokenizer(), policy.chatFormat(),
                    NativeActionFormat.of(policy.model()));
            try (OpenAiServer server = OpenAiServer.start(backend, ServerSettings.loopback(0))) {
                OpenAiClient client = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), "student"));
                ChatResponse answer = client.chat(ChatRequest.of(List.of(ChatMessage.user(question)))
                        .withTools(tools.stream().map(t -> ToolDefinition.function(t.name(), t.description(), t.parameters())).toList())
                        .withMaxTokens(48).withTemperature(0));
                ChatMessage message = answer.message();
                return message.toolCalls() == null || message.toolCalls().isEmpty() ? String.valueOf(message.content())
                        : "tool calls " + message.toolCalls();
            }
        }
    }
}
