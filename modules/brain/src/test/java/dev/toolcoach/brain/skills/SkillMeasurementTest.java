package dev.toolcoach.brain.skills;

import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.synthetic.FinanceTask;
import dev.toolcoach.tools.finance.FinanceTools;
import dev.toolcoach.tools.skills.Crystallizer;
import dev.toolcoach.tools.skills.SkillDefinition;
import dev.toolcoach.tools.skills.SkillLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The finance task's two-call questions crystallised into one composite, measured on other questions. */
class SkillMeasurementTest {

    @Test
    void theFinanceTwoCallQuestionsTakeOneCallOnceTheirSkillIsRegistered(@TempDir Path dir) throws Exception {
        Task finance = FinanceTask.create(200, 3);
        List<TaskExample> mine = finance.examples().subList(0, 100);
        List<TaskExample> eval = finance.examples().subList(100, 200);
        SkillLibrary library = new SkillLibrary(dir);
        SkillMeasurement.Result result = new SkillMeasurement(ScratchRecipe.defaults().greedyAgent(), finance.reward())
                .run(mine, eval, FinanceTools.suite(), library,
                        new Crystallizer.Settings(2, 4, 3, 1.0, true, Duration.ofSeconds(10), List.of(16_000, 1000)), "test");

        assertEquals(List.of("compound_interest_then_cagr"), result.registered());
        SkillDefinition skill = library.all().get(0);
        List<String> parameters = new java.util.ArrayList<>();
        skill.parameters().path("properties").fieldNames().forEachRemaining(parameters::add);
        assertEquals(List.of("principal", "annual_rate", "years", "compounds_per_year"), parameters);
        assertEquals(result.before().examples(), result.after().examples());
        assertEquals(result.before().solved(), result.after().solved(), "success unchanged");
        assertEquals(eval.size(), result.before().solved());
        assertTrue(result.before().meanCalls() > 1.0, "some questions take two calls: " + result.before());
        assertEquals(1.0, result.after().meanCalls(), 1e-9, result.after().toString());
    }

    @Test
    void aPlanMakingASkillsCallsUsesTheSkillInsteadAndOtherPlansStayAsTheyAre() {
        List<TaskExample> examples = FinanceTask.create(200, 3).examples();
        TaskExample twoCalls = examples.stream().filter(e -> e.solution().size() == 3).findFirst().orElseThrow();
        TaskExample oneCall = examples.stream().filter(e -> e.solution().size() == 2).findFirst().orElseThrow();
        var arguments = new java.util.LinkedHashMap<String, dev.toolcoach.tools.skills.ArgumentSource>();
        arguments.put("principal", new dev.toolcoach.tools.skills.ArgumentSource.Parameter("principal", 0));
        SkillDefinition skill = new SkillDefinition("compound_interest_then_cagr", "", "finance",
                new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("type", "object"),
                List.of(new SkillDefinition.Step("compound_interest", arguments), new SkillDefinition.Step("cagr", java.util.Map.of())),
                SkillDefinition.Status.APPROVED, new SkillDefinition.Provenance("s", List.of(), 0, 1, 2, 3, 0, "now"));

        TaskExample skilled = SkillMeasurement.usingSkills(twoCalls, List.of(skill));
        assertEquals(2, skilled.solution().size());
        assertEquals("compound_interest_then_cagr", skilled.solution().get(0).calls().get(0).name());
        assertEquals(java.util.Map.of("principal", twoCalls.solution().get(0).calls().get(0).arguments().get("principal")),
                skilled.solution().get(0).calls().get(0).arguments());
        assertEquals(twoCalls.solution().get(2), skilled.solution().get(1), "the answer turn stays");
        assertEquals(oneCall.solution(), SkillMeasurement.usingSkills(oneCall, List.of(skill)).solution());
    }
}
