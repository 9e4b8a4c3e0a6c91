package dev.toolcoach.chat.jinja;

import java.util.List;
import java.util.Map;

/** A function a template may call (a global such as {@code raise_exception}, a macro, a bound method). */
@FunctionalInterface
public interface PyCallable {
    Object call(List<Object> args, Map<String, Object> kwargs);
}
