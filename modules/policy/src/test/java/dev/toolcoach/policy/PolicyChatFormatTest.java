package dev.toolcoach.policy;

import dev.toolcoach.chat.ChatMlTemplate;
import dev.toolcoach.chat.JinjaChatTemplate;
import dev.toolcoach.chat.Llama3Template;
import dev.toolcoach.model.tokenizer.HfTokenizer;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.trace.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PolicyChatFormatTest {

    private static final Map<String, Integer> CHATML = Map.of("<|im_start|>", 256, "<|im_end|>", 257, "<|endoftext|>", 258);
    private static final Map<String, Integer> LLAMA3 = Map.of("<|begin_of_text|>", 1, "<|start_header_id|>", 5,
            "<|end_header_id|>", 6, "<|eot_id|>", 9);
    private static final List<Message> CONVERSATION = List.of(Message.system("You add numbers."), Message.user("2+3?"));

    @Test
    void chatMlPiecesAndStopTokenComeFromTheTemplate() {
        PolicyChatFormat chat = new PolicyChatFormat(new ChatMlTemplate(), CHATML, Set.of(258));
        assertEquals("<|im_start|>assistant\n", chat.generationPrefix());
        assertEquals("\n", chat.closeReply(true));
        assertEquals("<|im_end|>\n", chat.closeReply(false));
        assertEquals(Set.of(257), chat.stopTokenIds(), "the end-of-turn token, not the document EOS");
        assertEquals("<|im_start|>user\n<tool_response>\n5\n</tool_response><|im_end|>\n",
                chat.renderMessage(chat.toolResponses(List.of("5"))));
    }

    @Test
    void llama3EndsTurnsOnEotAndKeepsItsBeginOfTextOnlyInThePrompt() {
        PolicyChatFormat chat = new PolicyChatFormat(new Llama3Template(), LLAMA3, Set.of());
        assertEquals(Set.of(9), chat.stopTokenIds());
        assertEquals("", chat.closeReply(true));
        assertEquals("<|eot_id|>", chat.closeReply(false));
        assertTrue(chat.renderPrompt(CONVERSATION).startsWith("<|begin_of_text|><|start_header_id|>system"));
        assertEquals("<|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>", chat.renderMessage(Message.user("hi")));
        assertEquals("<|start_header_id|>tool<|end_header_id|>\n\nsunny<|eot_id|>",
                chat.renderMessage(Message.toolResult("weather", "sunny")), "a result named by its tool keeps the template's tool role");
        assertEquals("<|start_header_id|>user<|end_header_id|>\n\n<tool_response>\n5\n</tool_response><|eot_id|>",
                chat.renderMessage(chat.toolResponses(List.of("5"))), "wrapped outputs are a user turn");
    }

    @Test
    void appendingPiecesReproducesTheWholeRenderingOfTheLongerConversation() {
        for (PolicyChatFormat chat : List.of(new PolicyChatFormat(new ChatMlTemplate(), CHATML, Set.of()),
                new PolicyChatFormat(new Llama3Template(), LLAMA3, Set.of()))) {
            Message observation = chat.toolResponses(List.of("5", "6"));
            String incremental = chat.renderPrompt(CONVERSATION) + "<think>add</think>" + chat.closeReply(false)
                    + chat.renderMessage(observation) + chat.generationPrefix();
            List<Message> longer = new ArrayList<>(CONVERSATION);
            longer.add(Message.assistant("<think>add</think>"));
            longer.add(observation);
            assertEquals(chat.renderPrompt(longer), incremental);
        }
    }

    /** The real Qwen2.5-Instruct template (tokenizer_config.json's, with its indentation) cuts into the same pieces. */
    @Test
    void qwen25InstructFolderTemplateIsAppendOnlyAndCutsIntoChatMlPieces() throws IOException {
        String qwen = Files.readString(SharedData.require("chat_templates/templates/qwen2.5-instruct.jinja"));
        PolicyChatFormat chat = new PolicyChatFormat(new JinjaChatTemplate(qwen, "", "<|im_end|>"), CHATML, Set.of(258));
        assertEquals("<|im_start|>assistant\n", chat.generationPrefix());
        assertEquals("<|im_end|>\n", chat.closeReply(false));
        assertEquals(Set.of(257), chat.stopTokenIds());
        assertEquals("<|im_start|>user\nhi<|im_end|>\n", chat.renderMessage(Message.user("hi")));
        Message observation = chat.toolResponses(List.of("5"));
        String incremental = chat.renderPrompt(CONVERSATION) + "<think>add</think>" + chat.closeReply(false)
                + chat.renderMessage(observation) + chat.generationPrefix();
        List<Message> longer = new ArrayList<>(CONVERSATION);
        longer.add(Message.assistant("<think>add</think>"));
        longer.add(observation);
        assertEquals(chat.renderPrompt(longer), incremental);
        assertTrue(incremental.startsWith("<|im_start|>system\nYou add numbers.<|im_end|>\n<|im_start|>user\n2+3?<|im_end|>\n"), incremental);
    }

    /**
     * Qwen3's template writes a thinking block into the last reply, so its pieces cannot be cut by appending: taken,
     * but only for native formats, which render whole conversations through it ({@code AgentLoop} refuses the rest).
     */
    @Test
    void qwen3TemplateIsTakenForNativeFormatsOnly() throws IOException {
        String qwen3 = Files.readString(SharedData.require("chat_templates/templates/qwen3.jinja"));
        PolicyChatFormat chat = new PolicyChatFormat(new JinjaChatTemplate(qwen3, "", "<|im_end|>"), CHATML, Set.of(258));
        assertFalse(chat.appendsTurns());
        assertEquals(Set.of(257), chat.stopTokenIds());
        assertEquals("<|im_start|>assistant\n", chat.generationPrefix());
        assertTrue(chat.template().isPresent());
    }

    @Test
    void plainTextEndOfTurnFallsBackToTheModelsEosAndWithoutOneIsRejected() {
        PolicyChatFormat chat = new PolicyChatFormat(new ChatMlTemplate(), Map.of(), Set.of(2));
        assertEquals(Set.of(2), chat.stopTokenIds());
        assertEquals("", chat.closeReply(true), "nothing of the marker follows a plain EOS");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PolicyChatFormat(new ChatMlTemplate(), Map.of(), Set.of()));
        assertTrue(e.getMessage().contains("no stop token"), e.getMessage());
    }

    @Test
    void specialTokensInRenderedChatEncodeToTheirIdsAndRoundTrip(@TempDir Path dir) throws IOException {
        Path folder = TinyChatModel.write(dir.resolve("m"), 1);
        try (HfTokenizer hf = HfTokenizer.load(folder.resolve("tokenizer.json"), TinyChatModel.VOCAB, -1, TinyChatModel.IM_END)) {
            HfTokenizer tokenizer = hf; // its special tokens come from tokenizer.json
            assertEquals(CHATML, tokenizer.specialTokens());
            String text = "<|im_start|>user\nhé<|im_end|>\n";
            int[] ids = tokenizer.encode(text);
            assertArrayEquals(new int[]{256, 'u', 's', 'e', 'r', '\n', 'h', 0xC3, 0xA9, 257, '\n'}, ids);
            assertEquals(text, tokenizer.decode(ids));
        }
    }
}
