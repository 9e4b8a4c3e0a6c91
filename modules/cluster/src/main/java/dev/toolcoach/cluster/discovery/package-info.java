/**
 * Who is available in the cluster. {@code ServiceKeys}: athlete actors register under {@code toolcoach-athletes}; each
 * tool server under {@code toolcoach-tools-<suite>} (one key per tool suite). The coach's {@code ServiceRegistry} actor
 * subscribes to the athletes key and to the key of every suite in {@code toolcoach.tools.suites}, logs each change
 * ({@code Services available: athletes=4 tools{...}}) and answers {@code GetDirectory} with the current
 * {@code ServiceDirectory} (immutable who-is-available). Both are local-only messages
 * ({@code NoSerializationVerificationNeeded}).
 */
package dev.toolcoach.cluster.discovery;
