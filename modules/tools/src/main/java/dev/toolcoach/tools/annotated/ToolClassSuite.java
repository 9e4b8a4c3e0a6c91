package dev.toolcoach.tools.annotated;

import dev.toolcoach.tools.spi.ToolSuite;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Objects;

/**
 * A suite made of one annotated tool class named by its binary name (a tool node's {@code toolcoach.tools.classes}):
 * loaded from the class path and made with its public no-argument constructor, so a user's LangChain4j {@code @Tool}
 * class, or one with this project's annotations, is hosted without code changes.
 *
 * @param suite     the suite's name
 * @param className the class's binary name, e.g. {@code com.acme.BookingTools} ({@code Outer$Inner} for a nested one)
 */
public record ToolClassSuite(String suite, String className) {

    public ToolClassSuite {
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(className, "className");
    }

    /**
     * Checks, without running any of its code, that the class can be a suite: it is on the class path, concrete, has
     * a public no-argument constructor and at least one annotated public method.
     *
     * @throws IllegalArgumentException one line naming the class and what is wrong
     */
    public void check() {
        Class<?> type = load(false);
        constructor(type);
        if (Arrays.stream(type.getMethods()).noneMatch(AnnotatedTools::isToolMethod)) {
            throw new IllegalArgumentException(className + " has no public method annotated @ToolMethod or LangChain4j @Tool");
        }
    }

    /**
     * Makes an instance and reads its tools.
     *
     * @throws IllegalArgumentException one line naming the class and what is wrong (see {@link #check()}), the
     *                                  constructor's failure, or a method that cannot be a tool
     */
    public ToolSuite open() {
        Constructor<?> constructor = constructor(load(true));
        Object tools;
        try {
            tools = constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException("the constructor of " + className + " failed: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("cannot make a " + className + ": " + e, e);
        }
        return ToolSuite.builder(suite).addAnnotated(tools).build();
    }

    private Class<?> load(boolean initialize) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            return Class.forName(className, initialize, loader != null ? loader : ToolClassSuite.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("class " + className + " is not on the class path", e);
        } catch (LinkageError e) { // a class it needs is missing, or its static initialiser failed
            throw new IllegalArgumentException("class " + className + " cannot be loaded: " + e, e);
        }
    }

    private Constructor<?> constructor(Class<?> type) {
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
            throw new IllegalArgumentException(className + " is abstract or an interface; name a concrete class");
        }
        if (type.getEnclosingClass() != null && !Modifier.isStatic(type.getModifiers())) {
            throw new IllegalArgumentException(className + " is an inner class; make it static or top-level");
        }
        try {
            Constructor<?> constructor = type.getConstructor();
            // the public constructor of a non-public class (e.g. a nested tool class) still needs access
            if (!Modifier.isPublic(type.getModifiers())) constructor.setAccessible(true);
            return constructor;
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(className + " has no public no-argument constructor", e);
        }
    }
}
