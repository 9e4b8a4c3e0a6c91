package dev.toolcoach.trace;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceHtmlTest {

    @Test
    void traceTextCannotLeaveTheDataElementAndReadsBackUnchanged() throws Exception {
        String hostile = "</script><script>alert(1)</script><!-- & \u2028";
        Trace trace = new Trace("r", "g", "q", hostile, List.of(), null, hostile, Termination.ANSWER, null, 0, 0,
                Map.of(Trace.REWARD_KEY, 1.0, Trace.STEP_KEY, 3L));
        String page = TraceHtml.render("a <b> title", List.of(TraceJsonTest.sampleTrace(), trace), id -> "t" + id);

        String open = "<script type=\"application/json\" id=\"trace-data\">";
        int start = page.indexOf(open) + open.length();
        int end = page.indexOf("</script>", start);
        String data = page.substring(start, end);
        assertEquals(2, page.split("</script>", -1).length - 1, "the data element and the viewer's script, nothing else");
        assertTrue(!data.contains("<") && !data.contains(">") && !data.contains("&"), data);
        JsonNode json = TraceJson.mapper().readTree(data);
        assertEquals("a <b> title", json.get("title").asText());
        JsonNode second = json.get("traces").get(1);
        assertEquals(hostile, second.get("query").asText());
        assertEquals(3, second.get("step").asLong());
        assertEquals(1.0, second.get("reward").asDouble());
        assertEquals("t4", json.get("token_text").get("4").asText());
        JsonNode first = json.get("traces").get(0);
        assertEquals(List.of("add"), List.of(first.get("tools").get(0).asText()));
        assertTrue(first.get("step").isNull() && first.get("reward").isNull());
        assertTrue(page.contains("Content-Security-Policy\" content=\"default-src 'none'"), "the page may load nothing");
    }
}
