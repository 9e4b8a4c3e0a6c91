package dev.toolcoach.chat.jinja;

import java.util.AbstractList;
import java.util.List;

/** Python's tuple: a list in every use except printing, {@code (a, b)}, and equality with a list. */
final class Tuple extends AbstractList<Object> {
    private final List<Object> items;

    Tuple(List<Object> items) {
        this.items = items;
    }

    @Override
    public Object get(int index) {
        return items.get(index);
    }

    @Override
    public int size() {
        return items.size();
    }
}
