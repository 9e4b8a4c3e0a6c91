/**
 * Chat templates, rendered as Transformers renders them.
 *
 * <p>{@code ChatTemplate.render(TemplateInput)} takes what {@code apply_chat_template} takes: {@code messages} (trace
 * {@code Message}s, given to a template in OpenAI's layout: {@code tool_calls: [{"type": "function", "function":
 * {"name", "arguments": {object}}}]} only when present, {@code name} on tool results), {@code tools} (OpenAI function
 * schemas; None when empty), {@code documents} (None), {@code add_generation_prompt}, the tokenizer's special tokens
 * and the extra {@code chat_template_kwargs}. {@code ConversationFile} reads that request from JSON (one-line errors
 * naming file and field); {@code coach-node render} prints exactly the prompt text.
 *
 * <p>A folder's own template is a {@code JinjaChatTemplate}, read by {@code HfModelFolder.chatTemplate(dir)} where
 * Transformers looks: {@code chat_template.jinja} (plus named {@code additional_chat_templates/*.jinja}), else
 * tokenizer_config.json's {@code chat_template} (a string, or a list of {@code {name, template}}: {@code tool_use}
 * renders requests with tools, {@code default} the rest); special tokens from tokenizer_config.json (strings or
 * AddedToken objects). It is parsed at load, so a broken template is a load error naming the file and line. Without
 * one, the family's {@code ChatMlTemplate}/{@code Llama3Template}. The engine is
 * {@code dev.toolcoach.chat.jinja}.
 */
package dev.toolcoach.chat;
