/**
 * Helper models: {@code ModelEndpoint} is an OpenAI-compatible URL or a local folder served in-process by
 * {@code ServedModel}, for judges, tool selectors, Zero-Learn generators and local teachers. {@code OutboundEndpoints}:
 * the URLs a job may name ({@code toolcoach.jobs.endpoints}), each with its own key: a URL must be at or below an entry
 * (same scheme, host and port; no user, query, fragment or {@code ..}) and is called with that entry's {@code api-key}
 * and no other; there is no ambient key, so a job cannot make the node send its credentials to a listener of its own.
 */
package dev.toolcoach.brain.endpoint;
