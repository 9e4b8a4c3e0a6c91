package dev.toolcoach.rewards.judge;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JudgeRepliesTest {

    private static String invalid(String reply, int n) {
        return assertThrows(InvalidJudgement.class, () -> JudgeReplies.ranking(reply, n)).getMessage();
    }

    @Test
    void ranksBecomeLinearRewardsWithTiesShared() throws InvalidJudgement {
        Ranking r = JudgeReplies.ranking("```json\n{\"ranking\": [2, [1, 3], 4]}\n```", 4);
        assertEquals(List.of(List.of(1), List.of(0, 2), List.of(3)), r.tiers());
        // positions 0 | 1,2 | 3 of 4: 1, mean(2/3, 1/3) = 0.5 each, 0
        assertEquals(List.of(0.5, 1.0, 0.5, 0.0), r.rewards());
        assertEquals(List.of(new Ranking.IndexPair(1, 0), new Ranking.IndexPair(1, 2), new Ranking.IndexPair(1, 3)),
                r.preferencePairs());
    }

    @Test
    void strictOrderAndSingletonGroups() throws InvalidJudgement {
        assertEquals(List.of(0.0, 0.5, 1.0), JudgeReplies.ranking("{\"ranking\": [3, 2, 1]}", 3).rewards());
        assertEquals(List.of(1.0), JudgeReplies.ranking("{\"ranking\": [1]}", 1).rewards());
        Ranking allTied = JudgeReplies.ranking("{\"ranking\": [[1, 2]]}", 2);
        assertEquals(List.of(0.5, 0.5), allTied.rewards());
        assertEquals(List.of(), allTied.preferencePairs(), "a full tie prefers nothing");
    }

    @Test
    void invalidRankingsAreNamed() {
        assertEquals("attempt 2 is ranked twice", invalid("{\"ranking\": [2, 1, 2]}", 3));
        assertEquals("attempt 5 is out of range 1..3", invalid("{\"ranking\": [5, 1, 2]}", 3));
        assertEquals("attempt 0 is out of range 1..3", invalid("{\"ranking\": [0, 1, 2]}", 3));
        assertEquals("attempts [3] are not ranked", invalid("{\"ranking\": [2, 1]}", 3));
        assertEquals("the reply is not JSON: Attempt 2 is best.", invalid("Attempt 2 is best.", 2));
        assertEquals("the reply has no \"ranking\" list", invalid("{\"order\": [1, 2]}", 2));
        assertEquals("'\"first\"' is not an attempt number", invalid("{\"ranking\": [\"first\", 2]}", 2));
        assertEquals("'1.5' is not an attempt number", invalid("{\"ranking\": [1.5, 2]}", 2));
        assertEquals("the ranking has an empty tie group", invalid("{\"ranking\": [[], 1, 2]}", 2));
    }

    @Test
    void relativeScoresAreCheckedAndRanked() throws InvalidJudgement {
        List<Double> s = JudgeReplies.scores("{\"scores\": [{\"attempt\": 2, \"explanation\": \"wrong tool\", \"score\": 0.2},"
                + " {\"attempt\": 1, \"score\": 0.9}, {\"attempt\": 3, \"score\": 0.2}]}", 3);
        assertEquals(List.of(0.9, 0.2, 0.2), s);
        assertEquals(List.of(List.of(0), List.of(1, 2)), JudgeReplies.rankingOf(s).tiers());
        assertEquals("attempt 1 has score 1.5, outside [0, 1]", assertThrows(InvalidJudgement.class,
                () -> JudgeReplies.scores("{\"scores\": [{\"attempt\": 1, \"score\": 1.5}]}", 1)).getMessage());
        assertEquals("attempt 1 is scored twice", assertThrows(InvalidJudgement.class,
                () -> JudgeReplies.scores("{\"scores\": [{\"attempt\": 1, \"score\": 1}, {\"attempt\": 1, \"score\": 0}]}", 2)).getMessage());
        assertEquals("attempts [2] are not scored", assertThrows(InvalidJudgement.class,
                () -> JudgeReplies.scores("{\"scores\": [{\"attempt\": 1, \"score\": 1}]}", 2)).getMessage());
    }
}
