/**
 * Model families and their configuration. {@code ModelFamily} is the one registry, an enum with one constant per
 * Hugging Face {@code model_type} (llama, qwen2, qwen3, mistral, phi3). It says which forward features a family has,
 * its built-in chat format ({@code defaultChatTemplate()}), and the name of its native tool-call format
 * ({@code toolCallFormat()}: "hermes", "llama3-json", "mistral", "phi"; the agent module owns the codecs).
 * {@code HfConfigReader} reads config.json with the defaults of the family's Transformers config class, both v4
 * {@code rope_scaling} and v5 {@code rope_parameters}, into a {@code ModelConfig}, and refuses by name, in one line
 * naming the file and the field, whatever would change the forward but is not implemented. {@code Rope} is one record
 * per rope type (default, linear, dynamic, yarn, longrope, llama3), each computing inverse frequencies and attention
 * scaling as {@code modeling_rope_utils} does. Dynamic and longrope frequencies follow the last position of each row's
 * forward, as Transformers' prefill and step-by-step decode do.
 */
package dev.toolcoach.model.config;
