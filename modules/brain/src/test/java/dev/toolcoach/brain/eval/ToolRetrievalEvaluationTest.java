package dev.toolcoach.brain.eval;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.brain.FinanceTools;
import dev.toolcoach.retrieval.offer.Distractors;
import dev.toolcoach.retrieval.offer.QueryTools;
import dev.toolcoach.retrieval.offer.RetrievalMode;
import dev.toolcoach.retrieval.offer.ToolRetrievalSettings;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tool retrieval on a catalogue too large to offer whole: the finance suite among the arithmetic suite and BFCL's
 * schemas. The agent runs through the real loop and finance tools with the oracle's replies, so its calls go through
 * exactly when the retriever offered every tool its oracle calls.
 */
class ToolRetrievalEvaluationTest {

    private static final ByteTokenizer TOKENIZER = ByteTokenizer.chatMl();

    @Test
    void eachQueryIsOfferedOnlyItsRetrievedToolsAndTheTraceRecordsThem() {
        Task task = FinanceTask.create(12, 3L);
        List<ToolSpec> catalogue = new ArrayList<>(FinanceTools.specs());
        List<ToolSpec> distractors = Distractors.load(List.of("arithmetic"),
                List.of(SharedData.require("bfcl/BFCL_v3_simple.json")), BuiltinSuites.Options.defaults());
        catalogue.addAll(distractors);
        assertTrue(catalogue.size() > 300, "a catalogue too large to list: " + catalogue.size());

        List<TaskExample> offered;
        List<TaskExample> whole;
        int distinct;
        try (QueryTools retrieval = new QueryTools(catalogue, Optional.of(ToolRetrievalSettings.of(RetrievalMode.LEXICAL, 3)), Optional.empty());
             QueryTools everything = new QueryTools(catalogue, Optional.empty(), Optional.empty())) {
            offered = retrieval.offer(task.examples());
            whole = everything.offer(task.examples());
            assertEquals(0, retrieval.unmatched());
            distinct = everything.catalogueSize();
            assertEquals(catalogue.size(), distinct + everything.shadowed());
            assertTrue(everything.shadowed() > 0, "BFCL repeats some names, which an agent cannot tell apart");
        }
        assertTrue(offered.stream().allMatch(e -> e.tools().size() == 3));
        assertTrue(whole.stream().allMatch(e -> e.tools().size() == distinct));
        double recall = QueryTools.oracleToolRecall(offered);
        assertTrue(recall > 0.5, "BM25 finds the finance tools among the distractors for most queries: " + recall);
        assertEquals(1.0, QueryTools.oracleToolRecall(whole));

        EvaluationReport retrieved = evaluate(task, offered);
        Set<String> distractorNames = distractors.stream().map(ToolSpec::name).collect(Collectors.toSet());
        for (EvaluationReport.Outcome o : retrieved.outcomes()) {
            Trace trace = o.trace();
            List<String> names = o.example().tools().stream().map(ToolSpec::name).toList();
            assertEquals(names, trace.offeredTools());
            String system = trace.turns().get(0).promptForModel();
            for (ToolSpec t : catalogue) {
                // the system prompt lists the offered tools only (a catalogue tool that shares no name with one)
                if (!names.contains(t.name())) assertFalse(system.contains("\"" + t.name() + "\""), t.name() + " was not offered");
            }
        }
        // the oracle's calls go through exactly where its tools were offered: a call to a tool not offered is refused
        for (EvaluationReport.Outcome o : retrieved.outcomes()) {
            boolean refused = o.trace().turns().stream().anyMatch(t -> t.parsedCompletion().parseError() != null);
            assertEquals(QueryTools.oracleToolRecall(List.of(o.example())) < 1, refused, o.example().id() + ": " + o.trace().offeredTools());
        }

        EvaluationReport all = evaluate(task, whole);
        assertEquals(1.0, all.accuracy(), 1e-9);
        assertEquals(distinct, all.outcomes().get(0).trace().offeredTools().size());
        assertTrue(all.outcomes().get(0).trace().offeredTools().stream().anyMatch(distractorNames::contains));
        assertTrue(all.promptTokensPerTurn() > 20 * retrieved.promptTokensPerTurn(),
                "whole catalogue " + all.promptTokensPerTurn() + " vs retrieved " + retrieved.promptTokensPerTurn() + " tokens per turn");
        assertEquals(3.0, retrieved.offeredToolsPerRollout(), 1e-9);
    }

    private static EvaluationReport evaluate(Task task, List<TaskExample> examples) {
        Map<String, Generator> replies = new HashMap<>();
        for (TaskExample e : examples) {
            replies.put("eval-" + e.id(), ReplayGenerator.chatMl(TOKENIZER, e.oracleCompletions(ActionFormat.TOOL_N1)));
        }
        Generator byExample = request -> replies.get(request.trajectoryId()).generate(request);
        try (ToolExecutor tools = FinanceTools.executor()) {
            return new TaskEvaluation(TOKENIZER, new ChatMlFormat(), byExample, tools,
                    AgentConfig.defaults().withLimits(6, 1 << 20), task.reward()).evaluate(examples);
        }
    }
}
