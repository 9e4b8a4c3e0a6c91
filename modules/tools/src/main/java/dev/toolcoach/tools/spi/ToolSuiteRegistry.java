package dev.toolcoach.tools.spi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The tool suites a node knows, by name. Thread-safe. */
public final class ToolSuiteRegistry {

    private final Map<String, ToolSuite> suites = Collections.synchronizedMap(new LinkedHashMap<>());

    public ToolSuiteRegistry register(ToolSuite suite) {
        ToolSuite previous = suites.putIfAbsent(suite.name(), suite);
        if (previous != null) throw new IllegalArgumentException("a suite named '" + suite.name() + "' is already registered");
        return this;
    }

    public Optional<ToolSuite> find(String name) {
        return Optional.ofNullable(suites.get(name));
    }

    /** The suite of that name, or an error listing the known ones (a config naming a missing suite). */
    public ToolSuite get(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException(
                "no tool suite named '" + name + "'; known suites: " + names()));
    }

    public List<String> names() {
        synchronized (suites) {
            return List.copyOf(suites.keySet());
        }
    }
}
