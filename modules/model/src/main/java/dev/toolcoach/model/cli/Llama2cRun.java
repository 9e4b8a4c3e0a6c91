package dev.toolcoach.model.cli;

import dev.toolcoach.model.generate.BatchDecoder;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.tokenizer.Llama2cTokenizer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Generation with llama2.c {@code run}'s conventions: BOS first, the prompt encoded as run.c encodes it,
 * {@code steps} counting every position including the prompt's, generation ending at BOS, and the output being
 * the prompt followed by the continuation, each piece decoded relative to the token before it.
 */
public final class Llama2cRun {
    private static final int BOS = 1;

    private Llama2cRun() {
    }

    public static String generate(Transformer model, Llama2cTokenizer tokenizer, String prompt, float temperature, float topP,
                                  int steps, long seed) {
        int[] encoded = tokenizer.encode(prompt);
        int[] promptIds = new int[encoded.length + 1];
        promptIds[0] = BOS;
        System.arraycopy(encoded, 0, promptIds, 1, encoded.length);
        int positions = Math.min(steps <= 0 ? model.config().maxSeqLen() : steps, model.config().maxSeqLen());
        int[] sequence = promptIds.length > positions ? Arrays.copyOf(promptIds, positions) : promptIds;
        int newTokens = positions - promptIds.length + 1;
        if (newTokens > 0) {
            SamplingParams params = new SamplingParams(temperature, 0, topP, newTokens, seed, Set.of(BOS), List.of());
            DecodedSequence g = BatchDecoder.decodeOne(model, tokenizer, promptIds, params, null);
            int[] produced = g.tokens();
            int keep = produced.length > 0 && produced[produced.length - 1] == BOS ? produced.length - 1 : produced.length;
            sequence = Arrays.copyOf(promptIds, promptIds.length + keep);
            System.arraycopy(produced, 0, sequence, promptIds.length, keep);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 1; i < sequence.length; i++) {
            byte[] piece = tokenizer.piece(sequence[i - 1], sequence[i]);
            if (Llama2cTokenizer.printable(piece)) {
                out.writeBytes(piece);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
