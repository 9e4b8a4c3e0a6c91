package dev.toolcoach.retrieval;

import dev.toolcoach.agent.ToolSpec;

import java.util.List;

/** A small hand-written catalog the retriever tests share. */
public final class SampleTools {

    public static final ToolSpec WEATHER = ToolSpec.of("get_current_weather", "Get the current weather forecast for a city.",
            "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\",\"description\":\"City name\"}},\"required\":[\"city\"]}");
    public static final ToolSpec EMAIL = ToolSpec.of("sendEmail", "Send a message to a recipient.",
            "{\"type\":\"object\",\"properties\":{\"recipientAddress\":{\"type\":\"string\",\"description\":\"who receives it\"},"
                    + "\"body\":{\"type\":\"string\",\"description\":\"text of the message\"}}}");
    public static final ToolSpec TRIANGLE = ToolSpec.of("geometry.triangle_area", "Compute the area of a triangle from its base and height.",
            "{\"type\":\"object\",\"properties\":{\"base\":{\"type\":\"number\"},\"height\":{\"type\":\"number\"}}}");
    public static final ToolSpec STOCK = ToolSpec.of("get_stock_price", "Look up the latest share price of a company.",
            "{\"type\":\"object\",\"properties\":{\"ticker\":{\"type\":\"string\",\"description\":\"stock exchange symbol\"}}}");
    public static final ToolSpec TRANSLATE = ToolSpec.of("translate_text", "Translate text into another language.",
            "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"},\"target_language\":{\"type\":\"string\"}}}");
    /** Same name as {@link #STOCK}, another schema: a distinct catalog entry. */
    public static final ToolSpec STOCK_V2 = ToolSpec.of("get_stock_price", "Get the stock price of a company on a given date.",
            "{\"type\":\"object\",\"properties\":{\"company\":{\"type\":\"string\"},\"date\":{\"type\":\"string\"}}}");

    private SampleTools() {
    }

    public static ToolCatalog catalog() {
        return ToolCatalog.of(List.of(WEATHER, EMAIL, TRIANGLE, STOCK, TRANSLATE, STOCK_V2));
    }
}
