package dev.toolcoach.model.tokenizer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a Hugging Face {@code tokenizer.json} for a model trained from scratch: byte-level BPE (ids 0–255
 * are the bytes, so any text round-trips), then one token per merge in merge order, then the special
 * tokens (last, because the tokenizers library numbers added tokens after the model's vocabulary
 * whatever ids the file gives them). The text is not split into words first (no pre-tokenizer regex), so a merge may span spaces and
 * punctuation: the tokenizer applies exactly the merges it was given, in order, to each run of text
 * between special tokens.
 */
public final class ByteLevelTokenizerJson {

    private ByteLevelTokenizerJson() {
    }

    /** One BPE merge of two adjacent symbols, both written in the byte-level alphabet ({@link #toByteLevel}). */
    public record Merge(String left, String right) {
        public String merged() {
            return left + right;
        }
    }

    private static final String[] BYTE_CHARS = byteLevelAlphabet();

    /** The vocabulary size such a file declares (two merges may make the same token). */
    public static int vocabSize(List<String> specials, List<Merge> merges) {
        return firstSpecialId(merges) + specials.size();
    }

    /** The id of the first special token: the one after the bytes and the merged tokens. */
    public static int firstSpecialId(List<Merge> merges) {
        return 256 + (int) merges.stream().map(Merge::merged).distinct().count();
    }

    /** Text as the byte-level BPE sees it: each UTF-8 byte as its printable stand-in (a space is 'Ġ'). */
    public static String toByteLevel(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            out.append(BYTE_CHARS[b & 0xFF]);
        }
        return out.toString();
    }

    public static void write(Path file, List<String> specials, List<Merge> merges) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.put("version", "1.0");
        root.putNull("truncation");
        root.putNull("padding");
        ArrayNode added = root.putArray("added_tokens");
        int specialId = firstSpecialId(merges);
        for (String s : specials) {
            added.addObject().put("id", specialId++).put("content", s).put("single_word", false)
                    .put("lstrip", false).put("rstrip", false).put("normalized", false).put("special", true);
        }
        root.putNull("normalizer");
        root.set("pre_tokenizer", byteLevel(json));
        root.putNull("post_processor");
        root.set("decoder", byteLevel(json));
        ObjectNode model = root.putObject("model");
        model.put("type", "BPE");
        model.putNull("dropout");
        model.putNull("unk_token");
        model.put("fuse_unk", false);
        model.put("byte_fallback", false);
        ObjectNode vocab = model.putObject("vocab");
        for (int b = 0; b < 256; b++) {
            vocab.put(BYTE_CHARS[b], b);
        }
        ArrayNode pairs = model.putArray("merges");
        int id = 256;
        for (Merge m : merges) {
            if (!vocab.has(m.merged())) vocab.put(m.merged(), id++);
            pairs.addArray().add(m.left()).add(m.right());
        }
        Files.writeString(file, json.writeValueAsString(root));
    }

    private static ObjectNode byteLevel(ObjectMapper json) {
        return json.createObjectNode().put("type", "ByteLevel").put("add_prefix_space", false)
                .put("trim_offsets", false).put("use_regex", false);
    }

    /** GPT-2's printable stand-in for each byte (bytes_to_unicode), indexed by byte value. */
    private static String[] byteLevelAlphabet() {
        String[] chars = new String[256];
        int extra = 0;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            chars[b] = String.valueOf((char) (printable ? b : 256 + extra++));
        }
        return chars;
    }
}
