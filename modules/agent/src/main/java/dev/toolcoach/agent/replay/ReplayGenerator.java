package dev.toolcoach.agent.replay;

import dev.toolcoach.lm.ChatMl;
import dev.toolcoach.lm.FinishReason;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.lm.Tokenizer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A generator that replays fixed replies (an oracle's, or a test's script) in order, as a model would emit them: the reply's tokens
 * followed by the stop token, cut to the request's token limit (finish reason LENGTH). Log-probs are
 * drawn from a seeded generator so they are distinct per token and reproducible. Every request is
 * kept, so tests can check exactly what the model was shown.
 */
public final class ReplayGenerator implements Generator {

    private final Tokenizer tokenizer;
    private final int stopToken;
    private final List<String> script;
    private final int policyVersion;
    private final SplittableRandom random;
    private final List<GenerationRequest> requests = new ArrayList<>();
    private final List<Generation> replies = new ArrayList<>();

    public ReplayGenerator(Tokenizer tokenizer, int stopToken, List<String> script, int policyVersion, long seed) {
        this.tokenizer = tokenizer;
        this.stopToken = stopToken;
        this.script = List.copyOf(script);
        this.policyVersion = policyVersion;
        this.random = new SplittableRandom(seed);
    }

    /** Replays {@code script} through ChatML with the byte tokenizer, ending replies with {@code <|im_end|>}. */
    public static ReplayGenerator chatMl(ByteTokenizer tokenizer, List<String> script) {
        return new ReplayGenerator(tokenizer, tokenizer.id(ChatMl.IM_END), script, 0, 42L);
    }

    @Override
    public synchronized CompletionStage<Generation> generate(GenerationRequest request) {
        if (requests.size() >= script.size()) {
            return CompletableFuture.failedFuture(new IllegalStateException("the script has only "
                    + script.size() + " replies"));
        }
        String text = script.get(requests.size());
        requests.add(request);
        int[] content = tokenizer.encode(text);
        int limit = request.sampling().maxNewTokens();
        int[] ids = Arrays.copyOf(content, content.length + 1);
        ids[content.length] = stopToken;
        FinishReason finish = FinishReason.STOP_TOKEN;
        if (ids.length > limit) {
            ids = Arrays.copyOf(ids, limit);
            text = tokenizer.decode(ids);
            finish = FinishReason.MAX_TOKENS;
        }
        float[] logprobs = new float[ids.length];
        for (int i = 0; i < ids.length; i++) {
            logprobs[i] = (float) -random.nextDouble(1e-3, 5.0);
        }
        int[] versions = new int[ids.length];
        Arrays.fill(versions, policyVersion);
        Generation reply = new Generation(ids, logprobs, versions, text, finish);
        replies.add(reply);
        return CompletableFuture.completedFuture(reply);
    }

    /** The requests received so far, in order. */
    public synchronized List<GenerationRequest> requests() {
        return List.copyOf(requests);
    }

    /** The replies given so far, in order. */
    public synchronized List<Generation> replies() {
        return List.copyOf(replies);
    }
}
