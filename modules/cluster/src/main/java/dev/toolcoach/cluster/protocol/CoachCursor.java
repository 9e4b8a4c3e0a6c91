package dev.toolcoach.cluster.protocol;

import java.util.List;
import java.util.Objects;

/**
 * Where the coach is in the job, as a checkpoint stores it. Restoring re-opens the groups that were
 * open (from scratch: the learner restored from the same checkpoint holds none of their traces) and
 * continues the dataset from {@code nextExample}.
 *
 * @param nextExample    index of the next training example to open a group for
 * @param epoch          completed passes over the dataset
 * @param nextGroup      sequence number of the next group id
 * @param openGroups     groups neither trained nor dropped yet
 * @param policyVersion  newest adapter version trained
 * @param groupsTrained  groups trained so far in the job
 * @param groupsCompleted closed groups whose every rollout had reached the learner
 * @param groupsDropped  dropped groups by reason
 */
public record CoachCursor(int nextExample, long epoch, long nextGroup, List<OpenGroup> openGroups, int policyVersion,
                          long groupsTrained, long groupsCompleted, GroupCounts groupsDropped)
        implements CborSerializable {

    /** An open group: its id and the example it was opened for (the query id guards against a changed dataset). */
    public record OpenGroup(String groupId, int exampleIndex, String queryId) {
        public OpenGroup {
            Objects.requireNonNull(groupId, "groupId");
            Objects.requireNonNull(queryId, "queryId");
        }
    }

    public CoachCursor {
        openGroups = List.copyOf(openGroups);
        Objects.requireNonNull(groupsDropped, "groupsDropped");
    }
}
