package dev.toolcoach.policy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.model.config.ModelFamily;
import dev.toolcoach.testkit.TinyChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NativeActionFormatTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aModelWithoutItsOwnTemplateActsInToolN1(@TempDir Path dir) throws IOException {
        Path tiny = TinyChatModel.write(dir.resolve("tiny"), 3);
        assertEquals(ActionFormat.TOOL_N1, NativeActionFormat.forModel(tiny), "scratch and tiny models keep Tool-N1");
        assertEquals(ActionFormat.TOOL_N1, NativeActionFormat.forModel(Files.writeString(dir.resolve("stories.bin"), "")),
                "a llama2.c checkpoint has no template");
    }

    @Test
    void aModelWithItsOwnTemplateActsInItsFamilysNativeFormat(@TempDir Path dir) throws IOException {
        Path qwen = TinyChatModel.write(dir.resolve("qwen"), 3);
        Files.writeString(qwen.resolve("chat_template.jinja"), "{{ messages }}");
        assertEquals(ActionFormat.HERMES, NativeActionFormat.forModel(qwen));

        Path llama = TinyChatModel.write(dir.resolve("llama"), 3);
        ObjectNode config = (ObjectNode) JSON.readTree(llama.resolve("config.json").toFile());
        config.put("model_type", "llama");
        JSON.writeValue(llama.resolve("config.json").toFile(), config);
        JSON.writeValue(llama.resolve("tokenizer_config.json").toFile(), JSON.createObjectNode().put("chat_template", "{{ x }}"));
        assertEquals(ActionFormat.LLAMA3_JSON, NativeActionFormat.forModel(llama));
    }

    @Test
    void theRegistrysFormatNamesMapToCodecsOrToToolN1() {
        assertEquals(Optional.of(ActionFormat.HERMES), NativeActionFormat.familyFormat(ModelFamily.QWEN2));
        assertEquals(Optional.of(ActionFormat.HERMES), NativeActionFormat.familyFormat(ModelFamily.QWEN3));
        assertEquals(Optional.of(ActionFormat.LLAMA3_JSON), NativeActionFormat.familyFormat(ModelFamily.LLAMA));
        assertEquals(Optional.empty(), NativeActionFormat.familyFormat(ModelFamily.MISTRAL),
                "Mistral-7B-Instruct's template has no tool role: tool results go back as user turns in Tool-N1");
        assertEquals(Optional.of(ActionFormat.PHI), NativeActionFormat.familyFormat(ModelFamily.PHI3), "Phi-4-mini's functools[...]");
    }
}
