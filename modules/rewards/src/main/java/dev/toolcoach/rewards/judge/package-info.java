/**
 * The ranking LLM judge: one prompt per group showing every attempt's thoughts, tool calls with
 * arguments, shortened tool outputs and final answer; a strictly checked JSON ranking (or RULER-style
 * relative scores) back; rewards, ranking and DPO preference pairs out.
 *
 * <p>{@code RankingJudge} gives ToolBrain's ranking or RULER's relative scores; the Brain's {@code judgeReward} and
 * {@code train --judge-*} ({@code --judge-url/-model/-mode}; brain's {@code JudgeChoice}) use it. A job names its judge
 * by URL only, under {@code toolcoach.jobs.endpoints}.
 */
package dev.toolcoach.rewards.judge;
