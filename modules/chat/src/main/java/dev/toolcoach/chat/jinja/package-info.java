/**
 * A small jinja2 interpreter (lexer → parser → AST → tree-walking interpreter over Python-like values), in the
 * way Hugging Face keeps <code>&#64;huggingface/jinja</code> for transformers.js.
 *
 * <p>Why not Jinjava (used before): even configured as far as it goes (trim/lstrip blocks, legacy whitespace overrides,
 * a custom {@code tojson}), it cannot parse step slices ({@code messages[::-1]}, Qwen3) or keyword arguments that are
 * expressions ({@code namespace(last=messages|length - 1)}), has no {@code break}/{@code continue}, prints {@code True}
 * as {@code true} and {@code None} as nothing, lacks Python's string methods and treats strings as not iterable (Llama
 * 3's tool results) — parser-level gaps, not configuration.
 *
 * <p>The interpreter follows jinja2 as Transformers configures it ({@code ImmutableSandboxedEnvironment},
 * {@code trim_blocks}, {@code lstrip_blocks}, loop controls, its {@code tojson} = {@code json.dumps(ensure_ascii=False,
 * indent=...)}, {@code raise_exception}, {@code strftime_now} on an injectable {@code Clock}, the {@code generation}
 * block): Python truthiness, equality, {@code str()}/{@code repr()} of values, slices, dict/str methods, jinja2's
 * scoping (a loop body's {@code set} stays in it; {@code namespace} attributes escape), Undefined (falsy, prints
 * nothing, fails when used further). Sandboxed by construction: values are only JSON-like types, tuples, namespaces,
 * loops and functions it defines; no Java object, method or field is looked up by name; list/dict mutators are refused
 * as jinja2's immutable sandbox refuses them; ranges over 100000, output over 10M chars and deep macro recursion stop
 * with an error. Any failure is a one-line {@code TemplateError}, surfaced as {@code IllegalArgumentException("chat
 * template: ...")}. Checked by {@code JinjaTemplateTest} (62 small templates against jinja2 3.1's own output,
 * {@code src/test/resources/jinja/make_cases.py}) and {@code SharedChatTemplatesTest} (testkit: every case in
 * ../shared/data/chat_templates through every real template, byte for byte).
 */
package dev.toolcoach.chat.jinja;
