package dev.toolcoach.cluster.protocol;

/**
 * Everything an athlete actor accepts. Open on purpose: the training protocol (work pulling,
 * rollouts, weight versions) adds its commands here.
 */
public interface AthleteCommand {
}
