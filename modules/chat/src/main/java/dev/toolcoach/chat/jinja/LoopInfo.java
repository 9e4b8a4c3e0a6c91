package dev.toolcoach.chat.jinja;

import java.util.List;

/** jinja2's {@code loop} variable inside a for loop. */
final class LoopInfo {
    private final List<Object> items;
    int index0;

    LoopInfo(List<Object> items) {
        this.items = items;
    }

    Object attribute(String name) {
        int n = items.size();
        return switch (name) {
            case "index0" -> (long) index0;
            case "index" -> (long) index0 + 1;
            case "revindex" -> (long) (n - index0);
            case "revindex0" -> (long) (n - index0 - 1);
            case "first" -> index0 == 0;
            case "last" -> index0 == n - 1;
            case "length" -> (long) n;
            case "depth" -> 1L;
            case "depth0" -> 0L;
            case "previtem" -> index0 > 0 ? items.get(index0 - 1) : new Undefined("there is no previous item");
            case "nextitem" -> index0 < n - 1 ? items.get(index0 + 1) : new Undefined("there is no next item");
            case "cycle" -> (PyCallable) (args, kwargs) -> {
                if (args.isEmpty()) {
                    throw new TemplateError("no items for cycling given");
                }
                return args.get(index0 % args.size());
            };
            default -> new Undefined("'LoopContext object' has no attribute '" + name + "'");
        };
    }
}
