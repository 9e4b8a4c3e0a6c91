package dev.toolcoach.brain.run;

import dev.toolcoach.brain.TrainingConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two limits of a training run, on a clock the test moves. */
class JobWatchdogTest {
    private final AtomicLong now = new AtomicLong(1_000);

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void aRunWithoutAStepForTheStallTimeoutExpiresAndEachStepRestartsTheCount() {
        JobWatchdog watchdog = new JobWatchdog(new TrainingConfig.Limits(Duration.ofHours(1), Duration.ofMinutes(5), 3), now::get);
        assertEquals(Duration.ofMinutes(5).toNanos(), watchdog.nanosUntilDue());
        advance(Duration.ofMinutes(4));
        watchdog.stepDone();
        advance(Duration.ofMinutes(4));
        assertEquals(Optional.empty(), watchdog.expired(), "the step restarted the count");
        assertEquals(Duration.ofMinutes(1).toNanos(), watchdog.nanosUntilDue());
        advance(Duration.ofMinutes(1));
        assertTrue(watchdog.expired().orElseThrow().startsWith("no learner step completed within the stall timeout of PT5M"),
                watchdog.expired().toString());
    }

    @Test
    void aRunThatKeepsSteppingStillEndsAtTheJobTimeout() {
        JobWatchdog watchdog = new JobWatchdog(new TrainingConfig.Limits(Duration.ofMinutes(10), Duration.ofMinutes(5), 3), now::get);
        for (int i = 0; i < 9; i++) {
            advance(Duration.ofMinutes(1));
            watchdog.stepDone();
            assertEquals(Optional.empty(), watchdog.expired());
        }
        assertEquals(Duration.ofMinutes(1).toNanos(), watchdog.nanosUntilDue(), "the job timeout comes first");
        advance(Duration.ofMinutes(1));
        assertEquals(Optional.of("the job ran past its timeout of PT10M"), watchdog.expired());
    }

    @Test
    void limitsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new TrainingConfig.Limits(Duration.ZERO, Duration.ofMinutes(1), 3));
        assertThrows(IllegalArgumentException.class, () -> new TrainingConfig.Limits(Duration.ofMinutes(1), Duration.ofSeconds(-1), 3));
        assertThrows(IllegalArgumentException.class, () -> new TrainingConfig.Limits(Duration.ofMinutes(1), Duration.ofMinutes(1), -1));
    }
}
