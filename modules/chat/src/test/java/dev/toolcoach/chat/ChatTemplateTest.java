package dev.toolcoach.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcoach.trace.Message;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChatTemplateTest {
    private static final List<Message> CHAT = List.of(Message.system("You are helpful."), Message.user("What is 2+3?"));

    /** The ChatML template Qwen1.5/Qwen2 folders ship in tokenizer_config.json. */
    private static final String QWEN_TEMPLATE = "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
            + "{{ '<|im_start|>system\\nYou are a helpful assistant<|im_end|>\\n' }}{% endif %}"
            + "{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}"
            + "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

    @Test
    void chatMlMatchesQwensOwnTemplateRenderedByJinjava() {
        String expected = "<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nWhat is 2+3?<|im_end|>\n<|im_start|>assistant\n";
        assertEquals(expected, new ChatMlTemplate().render(CHAT, true));
        assertEquals(expected, new JinjaChatTemplate(QWEN_TEMPLATE, "", "<|im_end|>").render(CHAT, true));
        assertTrue(new JinjaChatTemplate(QWEN_TEMPLATE, "", "").render(List.of(Message.user("hi")), false)
                .startsWith("<|im_start|>system\nYou are a helpful assistant<|im_end|>\n<|im_start|>user\nhi"));
    }

    @Test
    void llama3HeadersWrapEachTurn() {
        assertEquals("<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are helpful.<|eot_id|>"
                + "<|start_header_id|>user<|end_header_id|>\n\nWhat is 2+3?<|eot_id|>"
                + "<|start_header_id|>assistant<|end_header_id|>\n\n", new Llama3Template().render(CHAT, true));
    }

    @Test
    void templateRaisingAnExceptionIsAClearError() {
        var t = new JinjaChatTemplate("{% if messages[0]['role'] != 'user' %}{{ raise_exception('first turn must be user') }}{% endif %}", "", "");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.render(CHAT, true));
        assertTrue(e.getMessage().contains("first turn must be user"), e.getMessage());
    }
}
