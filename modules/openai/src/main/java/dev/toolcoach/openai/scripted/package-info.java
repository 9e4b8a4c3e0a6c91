/**
 * A model side for the OpenAI-compatible server without a model: scripted replies, so judges,
 * teachers and generators can be exercised end to end over real HTTP in tests and dry runs.
 */
package dev.toolcoach.openai.scripted;
