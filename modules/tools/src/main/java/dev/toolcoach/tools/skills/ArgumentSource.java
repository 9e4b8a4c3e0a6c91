package dev.toolcoach.tools.skills;

/** Where one argument of a composite's step comes from. */
public sealed interface ArgumentSource {

    /**
     * A parameter of the composite (the caller gives it).
     *
     * @param name        the composite's parameter
     * @param foundInStep when the argument's value was always written in an earlier step's result text but at no one
     *                    place of its structured result, that step (1-based): data flow the composite cannot take over,
     *                    shown on its card; else 0
     */
    record Parameter(String name, int foundInStep) implements ArgumentSource {
    }

    /**
     * The value at a JSON Pointer of an earlier step's structured result (data flow taken over by the composite).
     *
     * @param step    the earlier step, 1-based
     * @param pointer a JSON Pointer (RFC 6901) into that step's structured result, e.g. {@code /0/message_id}
     */
    record FromStep(int step, String pointer) implements ArgumentSource {
    }
}
