package dev.toolcoach.retrieval;

import dev.toolcoach.agent.ToolSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ToolCatalogTest {

    @Test
    void identicalSpecsAreKeptOnceAndSameNamedVariantsStay() {
        ToolSpec weatherAgain = ToolSpec.of("get_current_weather", "Get the current weather forecast for a city.",
                "{\"required\":[\"city\"],\"properties\":{\"city\":{\"description\":\"City name\",\"type\":\"string\"}},\"type\":\"object\"}");
        ToolCatalog catalog = ToolCatalog.of(List.of(SampleTools.WEATHER, SampleTools.STOCK, weatherAgain, SampleTools.STOCK_V2));

        assertEquals(List.of(SampleTools.WEATHER, SampleTools.STOCK, SampleTools.STOCK_V2), catalog.tools());
        assertEquals(1, catalog.duplicatesDropped());
    }
}
