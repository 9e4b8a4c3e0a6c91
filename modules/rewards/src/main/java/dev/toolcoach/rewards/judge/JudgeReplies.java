package dev.toolcoach.rewards.judge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Reads a judge's JSON reply strictly: every attempt (numbered 1..n in the prompt) must appear
 * exactly once, in range; anything else is an {@link InvalidJudgement} naming the problem.
 * Tolerated: a code fence or prose around the one JSON object.
 */
final class JudgeReplies {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JudgeReplies() {
    }

    /** {@code {"ranking": [best, [tied, tied], ..., worst]}} → tiers of 0-based indices. */
    static Ranking ranking(String reply, int n) throws InvalidJudgement {
        JsonNode list = object(reply).path("ranking");
        if (!list.isArray()) throw new InvalidJudgement("the reply has no \"ranking\" list");
        BitSet seen = new BitSet(n);
        List<List<Integer>> tiers = new ArrayList<>();
        for (JsonNode entry : list) {
            List<Integer> tier = new ArrayList<>();
            if (entry.isArray()) {
                if (entry.isEmpty()) throw new InvalidJudgement("the ranking has an empty tie group");
                for (JsonNode member : entry) tier.add(attempt(member, n, seen, "ranked"));
            } else {
                tier.add(attempt(entry, n, seen, "ranked"));
            }
            tiers.add(tier);
        }
        requireAll(seen, n, "ranked");
        return new Ranking(tiers);
    }

    /** RULER-style {@code {"scores": [{"attempt": k, "score": s, ...}]}} → score per index, in [0, 1]. */
    static List<Double> scores(String reply, int n) throws InvalidJudgement {
        JsonNode list = object(reply).path("scores");
        if (!list.isArray()) throw new InvalidJudgement("the reply has no \"scores\" list");
        BitSet seen = new BitSet(n);
        double[] scores = new double[n];
        for (JsonNode entry : list) {
            int index = attempt(entry.path("attempt"), n, seen, "scored");
            JsonNode score = entry.path("score");
            if (!score.isNumber()) throw new InvalidJudgement("attempt " + (index + 1) + " has no numeric score");
            double s = score.asDouble();
            if (!(s >= 0 && s <= 1)) {
                throw new InvalidJudgement("attempt " + (index + 1) + " has score " + s + ", outside [0, 1]");
            }
            scores[index] = s;
        }
        requireAll(seen, n, "scored");
        return IntStream.range(0, n).mapToObj(i -> scores[i]).toList();
    }

    /** Tiers from scores: higher first, equal scores tied. */
    static Ranking rankingOf(List<Double> scores) {
        Map<Double, List<Integer>> byScore = new TreeMap<>(Comparator.reverseOrder());
        for (int i = 0; i < scores.size(); i++) byScore.computeIfAbsent(scores.get(i), s -> new ArrayList<>()).add(i);
        return new Ranking(new ArrayList<>(new LinkedHashMap<>(byScore).values()));
    }

    private static JsonNode object(String reply) throws InvalidJudgement {
        int start = reply.indexOf('{');
        int end = reply.lastIndexOf('}');
        if (start < 0 || end < start) throw new InvalidJudgement("the reply is not JSON: " + head(reply));
        try {
            JsonNode node = MAPPER.readTree(reply.substring(start, end + 1));
            if (!node.isObject()) throw new InvalidJudgement("the reply is not a JSON object: " + head(reply));
            return node;
        } catch (JsonProcessingException e) {
            throw new InvalidJudgement("the reply is not valid JSON (" + e.getOriginalMessage() + "): " + head(reply));
        }
    }

    private static int attempt(JsonNode node, int n, BitSet seen, String what) throws InvalidJudgement {
        if (!node.isIntegralNumber()) throw new InvalidJudgement("'" + node + "' is not an attempt number");
        int number = node.asInt();
        if (number < 1 || number > n) throw new InvalidJudgement("attempt " + number + " is out of range 1.." + n);
        if (seen.get(number - 1)) throw new InvalidJudgement("attempt " + number + " is " + what + " twice");
        seen.set(number - 1);
        return number - 1;
    }

    private static void requireAll(BitSet seen, int n, String what) throws InvalidJudgement {
        if (seen.cardinality() == n) return;
        List<Integer> missing = IntStream.range(0, n).filter(i -> !seen.get(i)).map(i -> i + 1).boxed().toList();
        throw new InvalidJudgement("attempts " + missing + " are not " + what);
    }

    private static String head(String reply) {
        String r = reply.strip();
        return r.length() > 120 ? r.substring(0, 120) + "..." : r;
    }
}
