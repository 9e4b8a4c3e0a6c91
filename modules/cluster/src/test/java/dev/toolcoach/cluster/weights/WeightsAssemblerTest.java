package dev.toolcoach.cluster.weights;

import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.WeightsChunk;
import dev.toolcoach.testkit.SampleMessages;
import dev.toolcoach.cluster.weights.WeightsAssembler.Outcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

class WeightsAssemblerTest {

    private final WeightsChunker chunker = new WeightsChunker(4000); // 1000 floats per chunk

    @Test
    void chunksStayUnderTheLimitAndCoverTheAdapter() {
        List<WeightsChunk> chunks = chunker.split(1, SampleMessages.adapter(2500, 1));
        assertEquals(List.of(1000, 1000, 500), chunks.stream().map(c -> c.payload().length).toList());
        assertEquals(List.of(0, 1000, 2000), chunks.stream().map(WeightsChunk::offset).toList());
    }

    @Test
    void reassemblesChunksArrivingInAnyOrder() {
        float[] adapter = SampleMessages.adapter(2500, 2);
        List<WeightsChunk> chunks = new ArrayList<>(chunker.split(4, adapter));
        Collections.shuffle(chunks, new Random(3));
        WeightsAssembler assembler = new WeightsAssembler();
        assertInstanceOf(Outcome.Incomplete.class, assembler.accept(chunks.get(0)));
        assertInstanceOf(Outcome.Ignored.class, assembler.accept(chunks.get(0)), "duplicate");
        assertInstanceOf(Outcome.Incomplete.class, assembler.accept(chunks.get(1)));
        Outcome.Complete done = assertInstanceOf(Outcome.Complete.class, assembler.accept(chunks.get(2)));
        assertEquals(4, done.version());
        assertArrayEquals(adapter, done.adapter());
        assertInstanceOf(Outcome.Ignored.class, assembler.accept(chunks.get(2)), "late copy of a finished version");
    }

    @Test
    void newerVersionAbandonsThePartialOlderOne() {
        List<WeightsChunk> v1 = chunker.split(1, SampleMessages.adapter(2000, 4));
        float[] adapter2 = SampleMessages.adapter(1500, 5);
        List<WeightsChunk> v2 = chunker.split(2, adapter2);
        WeightsAssembler assembler = new WeightsAssembler();
        assembler.accept(v1.get(0));
        assembler.accept(v2.get(1));
        assertInstanceOf(Outcome.Ignored.class, assembler.accept(v1.get(1)), "superseded version");
        Outcome.Complete done = assertInstanceOf(Outcome.Complete.class, assembler.accept(v2.get(0)));
        assertArrayEquals(adapter2, done.adapter());
    }

    @Test
    void corruptDataIsReportedAndTheVersionCanBeResent() {
        float[] adapter = SampleMessages.adapter(1500, 6);
        List<WeightsChunk> chunks = chunker.split(9, adapter);
        WeightsChunk first = chunks.get(0);
        float[] flipped = first.payload().clone();
        flipped[17] += 1f;
        WeightsChunk damaged = new WeightsChunk(first.version(), first.index(), first.count(), first.offset(),
                first.totalFloats(), first.checksum(), flipped);
        WeightsAssembler assembler = new WeightsAssembler();
        assembler.accept(damaged);
        assertInstanceOf(Outcome.Corrupt.class, assembler.accept(chunks.get(1)));
        assembler.accept(chunks.get(1));
        assertArrayEquals(adapter, assertInstanceOf(Outcome.Complete.class, assembler.accept(first)).adapter());
    }
}
