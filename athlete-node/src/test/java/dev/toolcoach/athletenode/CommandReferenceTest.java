package dev.toolcoach.athletenode;

import dev.toolcoach.cluster.node.CommandReference;
import dev.toolcoach.testkit.GeneratedDoc;
import org.junit.jupiter.api.Test;

class CommandReferenceTest {

    @Test
    void docsCommandsHoldsWhatPicocliWritesForEveryCommand() throws Exception {
        GeneratedDoc.assertCurrent("docs/commands/athlete-node.md", CommandReference.markdown(new AthleteNodeMain()));
    }
}
