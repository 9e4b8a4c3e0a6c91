package dev.toolcoach.cluster.tools;

import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.tools.spi.ToolSuite;

/** A suite whose one tool takes as long as it is told, so tests can outlast a server's or a client's deadline. */
public final class SlowTools {

    public static final String SUITE = "slow";

    public static ToolSuite suite() {
        return ToolSuite.builder(SUITE).addAnnotated(new SlowTools()).build();
    }

    @ToolMethod(description = "Waits the given milliseconds, then says so.")
    public String pause(@Param("milliseconds to wait") long millis) throws InterruptedException {
        Thread.sleep(millis); // interruptible, as the executor's timeout expects
        return "paused " + millis + " ms";
    }
}
