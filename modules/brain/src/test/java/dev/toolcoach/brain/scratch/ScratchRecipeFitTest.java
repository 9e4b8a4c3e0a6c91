package dev.toolcoach.brain.scratch;

import dev.toolcoach.model.tokenizer.HfTokenizer;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.synthetic.ArithmeticTask;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tasks.synthetic.HpoTask;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.hpo.HpoDataset;
import dev.toolcoach.tools.hpo.HpoLab;
import dev.toolcoach.tools.hpo.HpoTools;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The default recipe's rollout limits fit every oracle demonstration of the tasks the main job trains, in the vocabulary
 * the job learns: a reply over {@code maxNewTokens} is cut before its answer and the warm-up silently drops it.
 */
class ScratchRecipeFitTest {

    @ParameterizedTest
    @ValueSource(strings = {FinanceTask.NAME, ArithmeticTask.NAME, HpoTask.NAME})
    void everyOracleReplyAndContextFitsTheDefaultLimits(String taskName, @TempDir Path dir) throws Exception {
        ScratchRecipe recipe = ScratchRecipe.defaults();
        // hpo on wine alone: its searches take seconds, the whole task's a minute and more, and its replies are as long
        // (wine and breast cancer together: longest reply 42 tokens, longest context 196)
        HpoLab lab = taskName.equals(HpoTask.NAME) ? new HpoLab(SharedData.require("hpo")) : null;
        Task task = switch (taskName) {
            case FinanceTask.NAME -> FinanceTask.create(400, 11L);
            case HpoTask.NAME -> HpoTask.create(lab, List.of(HpoDataset.WINE), 11L);
            default -> ArithmeticTask.create(400, 11L);
        };
        List<String> texts;
        try (ToolExecutor tools = new ToolExecutor(lab != null ? HpoTools.suite(lab)
                : BuiltinSuites.open(taskName, BuiltinSuites.Options.defaults()).suite(), ExecutorSettings.defaults())) {
            texts = TaskTexts.of(task.examples(), tools, recipe.greedyAgent());
        }
        TaskVocabulary vocabulary = TaskVocabulary.learn(texts, recipe.vocabulary().maxMerges(), recipe.vocabulary().minMergeCount());
        Path file = dir.resolve("tokenizer.json");
        vocabulary.writeTokenizer(file);
        List<String> tooLong = new ArrayList<>();
        try (HfTokenizer tokenizer = HfTokenizer.load(file, vocabulary.size(), -1, vocabulary.imEndId())) {
            for (int i = 0; i < texts.size(); i++) {
                TaskExample example = task.examples().get(i);
                int context = tokenizer.encode(texts.get(i)).length;
                if (context > recipe.rollouts().maxTotalTokens()) tooLong.add(example.id() + ": context of " + context + " tokens");
                for (String reply : example.oracleCompletions(recipe.rollouts().actionFormat())) {
                    int tokens = tokenizer.encode(reply).length + 1; // and the stop token
                    if (tokens > recipe.rollouts().maxNewTokens()) tooLong.add(example.id() + ": reply of " + tokens + " tokens: " + reply);
                }
            }
        }
        assertEquals(List.of(), tooLong);
    }
}
