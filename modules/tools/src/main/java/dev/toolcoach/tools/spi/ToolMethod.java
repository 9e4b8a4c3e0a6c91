package dev.toolcoach.tools.spi;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks a public method as a tool. Its parameters become the tool's JSON-schema arguments. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ToolMethod {
    /** Tool name; the method name when empty. */
    String name() default "";

    /** What the tool does, for the model. */
    String description();
}
