package dev.toolcoach.cluster.weights;

import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.AdapterPart;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.testkit.TestAdapters;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdapterPublicationTest {

    private static final ModelConfig MODEL = ModelConfig.llama(32, 64, 2, 4, 2, 16, 32);
    private static final LoraConfig LORA = new LoraConfig(2, 4f, 0f, Set.of("q_proj", "down_proj"));

    @Test
    void partsRebuildTheAdapterExactly() {
        AdapterWeights weights = TestAdapters.random(MODEL, LORA, 3, 31);
        List<AdapterPart> parts = new AdapterPublication(512).publish(weights);
        assertTrue(parts.size() > 1, "several chunks expected, got " + parts.size());
        WeightsAssembler assembler = new WeightsAssembler();
        WeightsAssembler.Outcome outcome = null;
        for (int i = parts.size() - 1; i >= 0; i--) { // any order will do
            outcome = assembler.accept(parts.get(i).chunk());
        }
        WeightsAssembler.Outcome.Complete done = (WeightsAssembler.Outcome.Complete) outcome;
        TestAdapters.assertSame(weights, AdapterFlattening.unflatten(done.version(), parts.get(0).layout(), done.adapter()));
    }

    @Test
    void onlyANewerVersionCanBePublishedAndOnlyANewerOneIsResent() {
        AdapterPublication publication = new AdapterPublication(512);
        assertTrue(publication.latestSince(-1).isEmpty(), "nothing published yet");
        List<AdapterPart> v2 = publication.publish(TestAdapters.random(MODEL, LORA, 2, 32));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> publication.publish(TestAdapters.random(MODEL, LORA, 2, 33)));
        assertEquals("adapter version 2 is not newer than the published version 2", e.getMessage());
        assertEquals(v2, publication.latestSince(1));
        assertTrue(publication.latestSince(2).isEmpty(), "an engine on version 2 needs nothing");
    }

    @Test
    void layoutAndFloatsThatDisagreeAreRejectedWithBothSizes() {
        AdapterFlattening.Flat flat = AdapterFlattening.flatten(TestAdapters.random(MODEL, LORA, 1, 34));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AdapterFlattening.unflatten(1, flat.layout(), new float[flat.floats().length - 1]));
        assertEquals("adapter version 1: layout needs " + flat.floats().length + " floats, got "
                + (flat.floats().length - 1), e.getMessage());
    }
}
