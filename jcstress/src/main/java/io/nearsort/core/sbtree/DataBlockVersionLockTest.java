package io.nearsort.core.sbtree;

import io.nearsort.core.memory.PageArena;
import io.nearsort.core.memory.SlabPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The data block's version lock (SB-Tree §III-F, §IV-D): a delayed insert shifts the entries of a data block under
 * the block's lock, and an optimistic reader that read the block during the shift must notice (its version
 * changed) and read again. The data block holds 10, 30, 40, …, 180 (each key its own value); one actor inserts 20
 * through the data layer ({@code DataLayer.put}, which moves every entry from 30 on one place right and rebuilds
 * the N-ary search table), the other looks up 30 and then 20 ({@code DataLayer.lookup}). 30 is in the block
 * before, during and after the insert: a reader that returns anything but 30 for it acted on a block a writer was
 * changing. Dropping the reader's validation (or taking the writer's lock after the shift) fails it
 * (docs/reliability.md, "Concurrency: jcstress").
 */
@JCStressTest
@Description("SB-Tree data block: an optimistic lookup never acts on a block changed under its read")
@Outcome(id = "30, -1", expect = ACCEPTABLE, desc = "the insert of 20 is not visible yet")
@Outcome(id = "30, 20", expect = ACCEPTABLE_INTERESTING, desc = "the insert of 20 is visible")
@Outcome(expect = FORBIDDEN, desc = "a lookup acted on a block a writer was changing")
@State
public class DataBlockVersionLockTest {
    private static final int BLOCK = 512;
    private static final long ABSENT = -1;

    private final PageArena arena = PageArena.builder().pageSize(BLOCK).concurrent(true)
            .slabPool(SlabPool.disabled()).build();
    private final DataLayer layer;
    private final ThreadContext writerContext = new ThreadContext(1, null);
    private final ThreadContext readerContext = new ThreadContext(2, null);

    public DataBlockVersionLockTest() {
        final DataBlockDescriptor d = new DataBlockDescriptor(BLOCK, 4);
        final EpochReclamation reclamation = new EpochReclamation();
        final long head = arena.allocate();
        DataBlock.format(head, Long.MIN_VALUE, 0L);
        final SearchLayer searchLayer = new SearchLayer(new SearchBlockDescriptor(BLOCK, 4), arena, reclamation,
                head);
        layer = new DataLayer(d, new PerThreadBlockDescriptor(BLOCK), arena, searchLayer, reclamation, d.capacity,
                head, () -> true);
        DataBlock.insertAt(d, head, 0, 0, 10, 10);
        for (int i = 1; i <= 16; i++) {
            DataBlock.insertAt(d, head, i, i, 20 + 10L * i, 20 + 10L * i);
        }
    }

    @Actor
    public void writer() {
        layer.put(writerContext, 20, 20);
    }

    @Actor
    public void reader(final JJ_Result r) {
        r.r1 = find(30);
        r.r2 = find(20);
    }

    private long find(final long key) {
        return layer.lookup(readerContext, key) == SegmentedBlock.FOUND ? readerContext.valueOut[0] : ABSENT;
    }

    @Arbiter
    public void close(final JJ_Result r) {
        arena.close();
    }
}
