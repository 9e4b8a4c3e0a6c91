package dev.toolcoach.tasks.calling;

/** The specific ways a model's calls can fail the check; {@link #bfclLabel()} is BFCL's own error_type. */
public enum CheckError {
    /** The output holds no parseable tool calls (format wrong). */
    FORMAT("format_error"),
    /** Not as many calls as expected ("multiple": exactly one). */
    WRONG_COUNT("wrong_count"),
    WRONG_FUNC_NAME("simple_function_checker:wrong_func_name"),
    MISSING_REQUIRED("simple_function_checker:missing_required"),
    UNEXPECTED_PARAM("simple_function_checker:unexpected_param"),
    /** An optional parameter the possible answer needs was left out. */
    MISSING_OPTIONAL("simple_function_checker:missing_optional"),
    TYPE_ERROR("type_error:simple"),
    NESTED_TYPE_ERROR("type_error:nested"),
    /** A Java category's argument value that is not a string of Java source text. */
    JAVA_TYPE_ERROR("type_error:java"),
    /** A JavaScript category's argument value that is not a string of JavaScript source text. */
    JS_TYPE_ERROR("type_error:js"),
    STRING_VALUE("value_error:string"),
    LIST_VALUE("value_error:list/tuple"),
    DICT_KEY("value_error:dict_key"),
    DICT_VALUE("value_error:dict_value"),
    LIST_DICT_COUNT("value_error:list_dict_count"),
    VALUE("value_error:others"),
    /** Parallel: some expected call matched none of the remaining model calls. */
    NO_MATCH("parallel_function_checker_no_order:cannot_find_match");

    private final String bfclLabel;

    CheckError(String bfclLabel) {
        this.bfclLabel = bfclLabel;
    }

    public String bfclLabel() {
        return bfclLabel;
    }
}
