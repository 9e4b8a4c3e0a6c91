package dev.toolcoach.toolnode;

import dev.toolcoach.cluster.node.CommandReference;
import dev.toolcoach.testkit.GeneratedDoc;
import org.junit.jupiter.api.Test;

class CommandReferenceTest {

    @Test
    void docsCommandsHoldsWhatPicocliWritesForEveryCommand() throws Exception {
        GeneratedDoc.assertCurrent("docs/commands/tool-node.md", CommandReference.markdown(new ToolNodeMain()));
    }
}
