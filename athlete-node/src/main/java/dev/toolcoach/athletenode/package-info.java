/**
 * The {@code athlete-node} program: a thin subclass of the cluster's {@code NodeRunCommand}, role {@code athlete}; its
 * node starts {@code athletes}, the {@code cluster.job.AthleteHost} ({@code toolcoach.athlete.actors-per-node}
 * athletes, default 2; {@code deploy/conf/athlete.conf} says 8), which joins whatever job the cluster announces.
 */
package dev.toolcoach.athletenode;
