package io.nearsort.core.btree;

import io.nearsort.core.memory.PageArena;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The off-heap key searches of a node against a plain scan of its keys. */
class NodeSearchTest {

    /** {@code gallopUpperBoundAt} from every start slot a caller may pass, for keys below, on, between and above. */
    @Test
    void gallopingSearchAgreesWithALinearScan() {
        try (PageArena arena = PageArena.builder().pageSize(1024).build()) {
            final long page = arena.allocate();
            final Node node = new Node(1024).initLeaf(page);
            final SplittableRandom random = new SplittableRandom(5);
            for (final int count : new int[] {0, 1, 2, 3, 7, 8, 9, NodeDescriptor.leafCapacity(1024)}) {
                final long[] keys = new long[count];
                long key = Long.MIN_VALUE;
                for (int i = 0; i < count; i++) {
                    key = i == 0 ? Long.MIN_VALUE : i == count - 1 ? Long.MAX_VALUE : key + 1 + random.nextInt(5);
                    keys[i] = key;
                    node.setKey(i, key);
                }
                node.setCount(count);
                for (int i = 0; i < count; i++) {
                    for (final long probe : new long[] {keys[i] - 1, keys[i], keys[i] + 1}) {
                        final int expected = linearUpperBound(keys, probe);
                        for (int from = 0; from <= expected; from++) {
                            assertEquals(expected, Node.gallopUpperBoundAt(page, from, count, probe),
                                    "count " + count + ", from " + from + ", key " + probe);
                        }
                    }
                }
            }
        }
    }

    /**
     * {@code lowerBoundOf} and {@code upperBoundOf} over key arrays of every length around the interpolation
     * threshold, spread evenly, in bursts (where a straight line through the ends guesses badly), with runs of
     * equal keys, with the extreme longs at the ends (whose differences overflow a long), and all equal; probed
     * below, on, between and above every key, and over sub-ranges; and the same searches guessed below a fence
     * ({@code lowerBoundOf(..., fence)}): the true one, and fences that lie, which must cost probes, never a wrong
     * index.
     */
    @Test
    void lowerAndUpperBoundsAgreeWithALinearScan() {
        try (PageArena arena = PageArena.builder().pageSize(4096).build()) {
            final long page = arena.allocate();
            final long address = page + NodeDescriptor.keyOffset(0);
            final Node node = new Node(4096).initLeaf(page);
            final SplittableRandom random = new SplittableRandom(11);
            final int capacity = NodeDescriptor.leafCapacity(4096);
            for (final String shape : new String[] {"even", "bursts", "repeats", "extremes", "equal", "random"}) {
                for (final int count : new int[] {0, 1, 2, 15, 16, 17, 31, 64, 100, capacity}) {
                    final long[] keys = keys(shape, count, random);
                    for (int i = 0; i < count; i++) {
                        node.setKey(i, keys[i]);
                    }
                    for (final long probe : probes(keys, random)) {
                        for (final int[] range : new int[][] {{0, count}, {count / 3, count}, {0, count - count / 4},
                                {count / 5, count - count / 5}}) {
                            final String where = shape + ", count " + count + ", range [" + range[0] + ", "
                                    + range[1] + "), key " + probe;
                            assertEquals(linearLowerBound(keys, range[0], range[1], probe),
                                    Node.lowerBoundOf(address, range[0], range[1], probe), "lower bound, " + where);
                            assertEquals(linearUpperBound(keys, range[0], range[1], probe),
                                    Node.upperBoundOf(address, range[0], range[1], probe), "upper bound, " + where);
                            for (final long fence : fences(keys, range[0], range[1])) {
                                assertEquals(linearLowerBound(keys, range[0], range[1], probe),
                                        Node.lowerBoundOf(address, range[0], range[1], probe, fence),
                                        "lower bound below fence " + fence + ", " + where);
                                assertEquals(linearUpperBound(keys, range[0], range[1], probe),
                                        Node.upperBoundOf(address, range[0], range[1], probe, fence),
                                        "upper bound below fence " + fence + ", " + where);
                            }
                        }
                    }
                }
            }
        }
    }

    /** Ascending keys of the named shape. */
    private static long[] keys(final String shape, final int count, final SplittableRandom random) {
        final long[] keys = new long[count];
        long key = switch (shape) {
            case "extremes" -> Long.MIN_VALUE;
            case "random" -> random.nextLong() / 2;
            default -> random.nextInt(1000);
        };
        for (int i = 0; i < count; i++) {
            keys[i] = key;
            key += switch (shape) {
                case "even" -> 10;
                case "bursts" -> random.nextInt(20) == 0 ? 1_000_000_000L : 1;
                case "repeats" -> random.nextInt(3) == 0 ? 1 + random.nextInt(3) : 0;
                case "equal" -> 0;
                case "random" -> 1 + random.nextInt(1 << 20);
                default -> 1 + random.nextInt(5); // extremes: the ends are set below
            };
        }
        if (shape.equals("extremes") && count > 1) {
            keys[count - 1] = Long.MAX_VALUE;
        }
        return keys;
    }

    /**
     * Fences for the keys {@code [from, to)}: the next key (as a parent's separator is), one above the last key,
     * none ({@link Node#NO_FENCE}), and wrong ones: below the first key, in the middle of the range, the extreme
     * longs, and one far above.
     */
    private static long[] fences(final long[] keys, final int from, final int to) {
        if (from >= to) {
            return new long[] {Node.NO_FENCE, Long.MIN_VALUE, 0};
        }
        final long last = keys[to - 1];
        return new long[] {
            to < keys.length ? keys[to] : last,
            last == Long.MAX_VALUE ? last : last + 1,
            Node.NO_FENCE,
            keys[from] == Long.MIN_VALUE ? keys[from] : keys[from] - 1,
            keys[from + (to - from) / 2],
            Long.MIN_VALUE,
            Long.MAX_VALUE - 1,
            last + Long.MAX_VALUE / 4, // may wrap around: any long can be a wrong fence
        };
    }

    /** Each key, its neighbours, points between keys, and the extreme longs. */
    private static long[] probes(final long[] keys, final SplittableRandom random) {
        final long[] probes = new long[keys.length * 3 + 12];
        int n = 0;
        for (final long key : keys) {
            probes[n++] = key;
            probes[n++] = key == Long.MIN_VALUE ? key : key - 1;
            probes[n++] = key == Long.MAX_VALUE ? key : key + 1;
        }
        probes[n++] = Long.MIN_VALUE;
        probes[n++] = Long.MAX_VALUE;
        probes[n++] = Long.MIN_VALUE + 1;
        probes[n++] = Long.MAX_VALUE - 1;
        probes[n++] = 0;
        while (n < probes.length) {
            probes[n++] = keys.length == 0 ? random.nextLong()
                    : keys[0] + (long) (random.nextDouble() * ((double) keys[keys.length - 1] - keys[0]));
        }
        return probes;
    }

    private static int linearLowerBound(final long[] keys, final int from, final int to, final long key) {
        int i = from;
        while (i < to && keys[i] < key) {
            i++;
        }
        return i;
    }

    private static int linearUpperBound(final long[] keys, final int from, final int to, final long key) {
        int i = from;
        while (i < to && keys[i] <= key) {
            i++;
        }
        return i;
    }

    private static int linearUpperBound(final long[] keys, final long key) {
        return linearUpperBound(keys, 0, keys.length, key);
    }
}
