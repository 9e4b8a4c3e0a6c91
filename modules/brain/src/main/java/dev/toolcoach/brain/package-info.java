/**
 * Coaching strategies the Brain calls: Zero-Learn task generation ({@code zerolearn}), distillation
 * from a teacher with a trace cache ({@code distill}), the JSON Lines dataset they exchange
 * ({@code dataset}) and their command-line entry points ({@code cli}).
 */
package dev.toolcoach.brain;
