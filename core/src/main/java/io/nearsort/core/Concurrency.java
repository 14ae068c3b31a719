package io.nearsort.core;

/**
 * Which threads may use an index at once: chosen on the builder of a structure that offers more than one
 * ({@code Indexes.saBPlusTree().concurrency(...)}), as one picks {@code TreeMap} or {@code ConcurrentSkipListMap}.
 * Each structure's Javadoc states what it guarantees under each choice.
 */
public enum Concurrency {
    /** Any number of threads write and read at once (the default where offered). */
    MULTI_WRITER,
    /**
     * One thread writes at a time, any number of threads read meanwhile: the writer's common case takes no lock
     * and no atomic read-modify-write, and point reads take no lock either (each marks a slot of its thread's
     * own; a writer about to reorganise waits for the marked reads, and reads that come meanwhile wait for it).
     * Writes may move from one thread to another when the hand-over itself orders them (a lock, a queue,
     * {@code Thread.join}); two threads writing at once is a misuse that the structure reports where it notices
     * it, and may otherwise corrupt the index.
     */
    SINGLE_WRITER,
    /**
     * {@link #SINGLE_WRITER} with the writer pinned to one thread: the first thread that writes is the only one
     * that may write for the life of the index, and the only one that may close it while it is alive (another
     * thread may close it once that thread has terminated). In exchange that thread's point reads neither mark a
     * slot nor check that a write moved what they read, as in {@link #SINGLE_THREAD}, while any number of other
     * threads read as beside a {@link #SINGLE_WRITER}. For a sink whose task thread both writes and looks up,
     * with queries from other threads. A write or close the pin forbids gets an {@code IllegalStateException}.
     */
    PINNED_WRITER,
    /**
     * One thread at a time for everything, reads included: no synchronisation at all. Confine the index to a
     * thread or hand it over as for {@link #SINGLE_WRITER}; a read racing a write may see anything.
     */
    SINGLE_THREAD
}
