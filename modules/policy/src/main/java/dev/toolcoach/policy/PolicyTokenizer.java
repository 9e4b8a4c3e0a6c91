package dev.toolcoach.policy;

import dev.toolcoach.agent.Tokenizer;
import dev.toolcoach.model.tokenizer.TextTokenizer;

import java.util.Map;

/**
 * The agent's {@link Tokenizer} over a model's own tokenizer. Both already agree on the contract
 * (no implicit BOS, special-token strings encode to their ids, decode writes them back), so this
 * only adds the special-token table the agent asks for.
 */
public final class PolicyTokenizer implements Tokenizer {

    private final TextTokenizer tokenizer;
    private final Map<String, Integer> specials;

    public PolicyTokenizer(TextTokenizer tokenizer, Map<String, Integer> specials) {
        this.tokenizer = tokenizer;
        this.specials = Map.copyOf(specials);
    }

    /** Over a loaded model's tokenizer, with the special tokens its tokenizer file declares. */
    public static PolicyTokenizer of(TextTokenizer tokenizer) {
        return new PolicyTokenizer(tokenizer, SpecialTokens.of(tokenizer));
    }

    @Override
    public int[] encode(String text) {
        return tokenizer.encode(text);
    }

    @Override
    public String decode(int[] ids) {
        return tokenizer.decode(ids);
    }

    @Override
    public Map<String, Integer> specialTokens() {
        return specials;
    }
}
