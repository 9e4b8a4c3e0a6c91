package dev.toolcoach.chat.jinja;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The interpreter's language features against Python's jinja2 itself: cases.json holds small templates and what
 * jinja2 3.1, configured as Transformers configures it, rendered or raised (made by make_cases.py beside it).
 */
class JinjaTemplateTest {
    private static final Clock JULY_26 = Clock.fixed(LocalDateTime.of(2024, 7, 26, 9, 5, 3).toInstant(ZoneOffset.UTC), ZoneOffset.UTC);

    @SuppressWarnings("unchecked")
    @TestFactory
    Stream<DynamicTest> rendersAsJinja2Does() throws IOException {
        Map<String, Object> file;
        try (InputStream in = JinjaTemplateTest.class.getResourceAsStream("/jinja/cases.json")) {
            file = new ObjectMapper().readValue(in, Map.class);
        }
        Map<String, Object> vars = new HashMap<>((Map<String, Object>) file.get("variables"));
        vars.putAll(JinjaTemplate.transformersGlobals(JULY_26));
        List<DynamicTest> tests = new ArrayList<>();
        for (Map<String, String> c : (List<Map<String, String>>) file.get("cases")) {
            String source = c.get("template");
            tests.add(DynamicTest.dynamicTest(source.length() > 70 ? source.substring(0, 70) : source, () -> {
                if (c.containsKey("expected")) {
                    assertEquals(c.get("expected"), JinjaTemplate.parse(source).render(vars), source);
                } else {
                    TemplateError e = assertThrows(TemplateError.class, () -> JinjaTemplate.parse(source).render(vars), source);
                    String reference = c.get("error");
                    String message = reference.substring(reference.indexOf(": ") + 2);
                    if (reference.startsWith("TemplateError") || reference.startsWith("UndefinedError") || reference.startsWith("SecurityError")
                            || reference.startsWith("TemplateAssertionError")) {
                        assertEquals(message, e.getMessage());
                    }
                    assertFalse(e.getMessage().contains("\n"));
                }
            }));
        }
        return tests.stream();
    }

    @Test
    void templatesReachNoJavaObjectOrMethod() {
        Map<String, Object> vars = Map.of("s", "text", "m", Map.of("k", 1));
        assertEquals("|||", JinjaTemplate.parse("{{ s.getClass }}|{{ m.getClass }}|{{ s.class }}|{{ m.entrySet }}").render(vars));
        TemplateError e = assertThrows(TemplateError.class, () -> JinjaTemplate.parse("{{ s.getClass() }}").render(vars));
        assertTrue(e.getMessage().contains("undefined") || e.getMessage().contains("no attribute"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> JinjaTemplate.parse("{{ x }}").render(Map.of("x", new Object())));
    }

    @Test
    void runawayTemplatesStopWithAnError() {
        assertThrows(TemplateError.class, () -> JinjaTemplate.parse("{% for i in range(1000000) %}{% endfor %}").render(Map.of()));
        assertThrows(TemplateError.class, () -> JinjaTemplate.parse("{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}").render(Map.of()));
    }

    @Test
    void syntaxErrorsNameTheLine() {
        TemplateError e = assertThrows(TemplateError.class, () -> JinjaTemplate.parse("a\n{% if x %}\n{{ 1 + }}"));
        assertTrue(e.getMessage().startsWith("line 3: "), e.getMessage());
    }
}
