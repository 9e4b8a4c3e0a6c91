/**
 * The ranking LLM judge: one prompt per group showing every attempt's thoughts, tool calls with
 * arguments, shortened tool outputs and final answer; a strictly checked JSON ranking (or RULER-style
 * relative scores) back; rewards, ranking and DPO preference pairs out.
 */
package dev.toolcoach.rewards.judge;
