/**
 * A complete model side without a neural network: a byte-level tokenizer, the ChatML chat format
 * and a generator that replays a fixed script of replies. It drives the agent loop exactly as a
 * real engine does (real token ids, log-probs, stop tokens). Production code, not a test double: the
 * main job replays each task's oracle through it (tasks' OracleRollout for the scratch vocabulary's
 * texts, brain's OracleTeacher for the distillation warm-up and {@code distill --oracle}); tests use
 * it to exercise tool suites, tasks and rewards end to end.
 */
package dev.toolcoach.agent.replay;
