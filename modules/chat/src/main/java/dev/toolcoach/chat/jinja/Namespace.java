package dev.toolcoach.chat.jinja;

import java.util.LinkedHashMap;
import java.util.Map;

/** jinja2's {@code namespace()}: the one object a template may assign attributes to from inside a loop. */
final class Namespace {
    final Map<String, Object> attributes = new LinkedHashMap<>();
}
