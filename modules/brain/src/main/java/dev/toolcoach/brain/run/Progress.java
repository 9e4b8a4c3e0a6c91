package dev.toolcoach.brain.run;

/**
 * Hears how far the long pieces of a job are (building the model, an evaluation, the warm-up's teacher traces and SFT
 * batches, training): each starts a {@link Meter} with its number of units, steps it once per unit done, and closes
 * it when it ends. {@link #NONE} hears nothing; {@link ConsoleProgress} shows it on a console.
 */
@FunctionalInterface
public interface Progress {

    Progress NONE = (what, total, unit) -> Meter.NONE;

    /**
     * @param what  the piece of work, e.g. {@code evaluate before_training}
     * @param total its units
     * @param unit  what a unit is, plural: {@code examples}, {@code traces}, {@code batches}
     */
    Meter start(String what, long total, String unit);

    /** One piece of work under way; thread-safe, as units may finish on other threads. */
    interface Meter extends AutoCloseable {
        Meter NONE = new Meter() {
            @Override
            public void step() {
            }

            @Override
            public void close() {
            }
        };

        /** One more unit is done. */
        void step();

        /** The work has ended (done or not). */
        @Override
        void close();
    }
}
