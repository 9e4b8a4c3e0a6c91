package dev.toolcoach.model.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.toolcoach.chat.JinjaChatTemplate;
import dev.toolcoach.chat.TemplateInput;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a folder's template comes from, as Transformers looks for it, and what it is given. */
class FolderChatTemplateTest {
    private static final List<Map<String, Object>> TOOLS = List.of(Map.of("type", "function", "function", Map.of("name", "add")));

    @TempDir
    Path dir;

    private JinjaChatTemplate load() {
        return HfModelFolder.chatTemplate(dir).orElseThrow();
    }

    @Test
    void namedTemplatesPickToolUseWhenToolsAreOfferedElseDefault() throws IOException {
        Files.writeString(dir.resolve("tokenizer_config.json"), """
                {"chat_template": [{"name": "default", "template": "D{{ bos_token }}{{ eos_token }}"},
                                   {"name": "tool_use", "template": "T{{ tools | length }}"}],
                 "bos_token": {"content": "<s>", "lstrip": false, "__type": "AddedToken"}, "eos_token": "</s>", "pad_token": null}
                """);
        List<Message> chat = List.of(Message.user("hi"));
        assertEquals("D<s></s>", load().render(chat, true));
        assertEquals("T1", load().render(new TemplateInput(chat, TOOLS, true, Map.of())));
    }

    @Test
    void withoutADefaultARequestWithoutToolsIsRefusedByName() throws IOException {
        Files.writeString(dir.resolve("tokenizer_config.json"), "{\"chat_template\": [{\"name\": \"tool_use\", \"template\": \"T\"}]}");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> load().render(List.of(Message.user("hi")), true));
        assertTrue(e.getMessage().contains("[tool_use]") && e.getMessage().contains("'default'"), e.getMessage());
    }

    @Test
    void chatTemplateJinjaFileWinsAndAdditionalTemplatesAreNamedByFile() throws IOException {
        Files.writeString(dir.resolve("tokenizer_config.json"), "{\"chat_template\": \"old\", \"eos_token\": \"<|im_end|>\"}");
        Files.writeString(dir.resolve("chat_template.jinja"), "{% for m in messages %}{{ m.role }}:{{ m.content }}{{ eos_token }}\n{% endfor %}\n");
        Files.createDirectories(dir.resolve("additional_chat_templates"));
        Files.writeString(dir.resolve("additional_chat_templates/tool_use.jinja"),
                "{% for m in messages %}{% for c in m.tool_calls %}{{ c.function.name }}{{ c.function.arguments | tojson }}{% endfor %}{{ m.name }}{% endfor %}");
        List<Message> chat = List.of(Message.user("hi"), Message.assistantCalls("", List.of(new ToolCall("add", Map.of("a", 1)))),
                Message.toolResult("add", "1"));
        assertEquals("user:hi<|im_end|>\nassistant:<|im_end|>\ntool:1<|im_end|>\n", load().render(chat, false));
        assertEquals("add{\"a\": 1}add", load().render(new TemplateInput(chat, TOOLS, false, Map.of())));
    }

    @Test
    void aBrokenTemplateIsALoadErrorNamingTheFileAndLine() throws IOException {
        Files.writeString(dir.resolve("tokenizer_config.json"), "{\"chat_template\": \"ok\\n{% if messages %}\"}");
        ModelLoadException e = assertThrows(ModelLoadException.class, () -> HfModelFolder.chatTemplate(dir));
        assertTrue(e.getMessage().startsWith(dir.resolve("tokenizer_config.json") + ": chat template does not parse: line 2: "), e.getMessage());
        Files.writeString(dir.resolve("tokenizer_config.json"), "{\"chat_template\": 3}");
        e = assertThrows(ModelLoadException.class, () -> HfModelFolder.chatTemplate(dir));
        assertTrue(e.getMessage().contains("chat_template: expected a string or a list"), e.getMessage());
    }

    @Test
    void aFolderWithoutATemplateHasNone() throws IOException {
        Files.writeString(dir.resolve("tokenizer_config.json"), "{\"eos_token\": \"</s>\"}");
        assertTrue(HfModelFolder.chatTemplate(dir).isEmpty());
    }
}
