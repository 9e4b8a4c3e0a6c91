package dev.toolcoach.tools.spi;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Describes a tool parameter (or a field of a record argument). */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
public @interface Param {
    /** What the argument means, for the model. */
    String value();

    /** Argument name; the Java parameter name (compiled with {@code -parameters}) when empty. */
    String name() default "";

    /** An optional argument arrives as null (or an empty Optional) when the model leaves it out. */
    boolean required() default true;
}
