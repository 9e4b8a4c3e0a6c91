package dev.toolcoach.learn.loss;

import dev.toolcoach.learn.batch.BatchRow;
import dev.toolcoach.learn.batch.ScoredGroup;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class GrpoBatchBuilderTest {
    static final double STD = Math.sqrt(0.5); // sample std of {1, 0}

    @Test
    void advantagesAreGroupNormalisedAndEqualGroupsAreSkipped() {
        GrpoBatchBuilder.Batch b = new GrpoBatchBuilder(GrpoConfig.defaults()).build(List.of(
                Fixtures.group("a", new int[] {1, 3}, 1.0, 0.0),
                Fixtures.group("flat", new int[] {2, 2}, 0.5, 0.5)));
        assertEquals(1, b.skippedGroups());
        assertEquals(2, b.rows().size());
        assertEquals(0.5 / (STD + 1e-4), b.rows().get(0).advantage(), 1e-6);
        assertEquals(-0.5 / (STD + 1e-4), b.rows().get(1).advantage(), 1e-6);
    }

    @Test
    void aggregationSetsTheRowWeights() {
        var groups = List.of(Fixtures.group("a", new int[] {1, 3}, 1.0, 0.0));
        assertArrayEquals(new float[] {0.25f, 0.25f}, weights(GrpoConfig.defaults(), groups), 1e-7f);
        assertArrayEquals(new float[] {0.5f, 1f / 6}, weights(GrpoConfig.defaults().withAggregation(GrpoConfig.Aggregation.SEQUENCE_MEAN), groups), 1e-7f);
        GrpoConfig dr = new GrpoConfig(0.2, 0.28, 2.0, 0, GrpoConfig.Aggregation.DR_GRPO, 10, 1e-4, 1, GrpoConfig.RatioBaseline.BEHAVIOUR, 1f, 0);
        assertArrayEquals(new float[] {0.05f, 0.05f}, weights(dr, groups), 1e-7f);
        GrpoBatchBuilder.Batch drBatch = new GrpoBatchBuilder(dr).build(groups);
        assertEquals(0.5, drBatch.rows().get(0).advantage(), 1e-7, "Dr.GRPO does not divide by the std");
    }

    private static float[] weights(GrpoConfig config, List<ScoredGroup> groups) {
        List<BatchRow> rows = new GrpoBatchBuilder(config).build(groups).rows();
        float[] w = new float[rows.size()];
        for (int i = 0; i < w.length; i++) w[i] = rows.get(i).weight();
        return w;
    }
}
