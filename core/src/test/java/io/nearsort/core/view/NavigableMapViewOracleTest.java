package io.nearsort.core.view;

import io.nearsort.core.Indexes;
import io.nearsort.core.LongIndex;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Random nested sub-, head-, tail- and descending views of a multi-level tree, driven side by side with the
 * same views of a {@link TreeMap}. Complements the Guava suite, whose maps hold at most a few entries.
 */
class NavigableMapViewOracleTest {

    @Test
    void randomNestedViewsAgreeWithTreeMap() {
        final SplittableRandom random = new SplittableRandom(2026);
        try (LongIndex index = Indexes.bPlusTree().pageSize(512).splitRatio(0.7).build()) {
            final NavigableMap<Long, Long> mine = index.asNavigableMap();
            final TreeMap<Long, Long> oracle = new TreeMap<>();
            for (int i = 0; i < 20_000; i++) {
                final long key = random.nextInt(40_000) - 20_000;
                mine.put(key, (long) i);
                oracle.put(key, (long) i);
            }
            mine.put(Long.MIN_VALUE, 1L);
            oracle.put(Long.MIN_VALUE, 1L);
            mine.put(Long.MAX_VALUE, 2L);
            oracle.put(Long.MAX_VALUE, 2L);
            for (int round = 0; round < 300; round++) {
                final List<Function<NavigableMap<Long, Long>, NavigableMap<Long, Long>>> path = randomPath(random);
                NavigableMap<Long, Long> a = mine;
                NavigableMap<Long, Long> b = oracle;
                for (final Function<NavigableMap<Long, Long>, NavigableMap<Long, Long>> step : path) {
                    Throwable expected = null;
                    NavigableMap<Long, Long> nextB = null;
                    try {
                        nextB = step.apply(b);
                    } catch (final IllegalArgumentException e) {
                        expected = e;
                    }
                    if (expected != null) {
                        final NavigableMap<Long, Long> from = a;
                        assertThrows(IllegalArgumentException.class, () -> step.apply(from), "round " + round);
                        break;
                    }
                    a = step.apply(a);
                    b = nextB;
                }
                compare(a, b, random, "round " + round);
            }
            assertEquals(oracle, mine);
        }
    }

    private static List<Function<NavigableMap<Long, Long>, NavigableMap<Long, Long>>> randomPath(
            final SplittableRandom random) {
        final List<Function<NavigableMap<Long, Long>, NavigableMap<Long, Long>>> path = new ArrayList<>();
        final int depth = 1 + random.nextInt(4);
        for (int i = 0; i < depth; i++) {
            final long x = random.nextInt(50_000) - 25_000;
            final long y = x + random.nextInt(8_000);
            final boolean xi = random.nextBoolean();
            final boolean yi = random.nextBoolean();
            switch (random.nextInt(4)) {
                case 0:
                    path.add(m -> m.comparator() == null ? m.subMap(x, xi, y, yi) : m.subMap(y, yi, x, xi));
                    break;
                case 1:
                    path.add(m -> m.headMap(x, xi));
                    break;
                case 2:
                    path.add(m -> m.tailMap(x, xi));
                    break;
                default:
                    path.add(NavigableMap::descendingMap);
            }
        }
        return path;
    }

    private static void compare(final NavigableMap<Long, Long> a, final NavigableMap<Long, Long> b,
                                final SplittableRandom random, final String when) {
        assertEquals(b.size(), a.size(), when);
        assertEquals(b.isEmpty(), a.isEmpty(), when);
        assertEquals(new ArrayList<>(b.entrySet()), new ArrayList<>(a.entrySet()), when);
        assertEquals(new ArrayList<>(b.descendingKeySet()), new ArrayList<>(a.descendingKeySet()), when);
        assertEquals(b.firstEntry(), a.firstEntry(), when);
        assertEquals(b.lastEntry(), a.lastEntry(), when);
        assertEquals(b.hashCode(), a.hashCode(), when);
        assertEquals(b.toString(), a.toString(), when);
        for (int i = 0; i < 50; i++) {
            final long probe = random.nextInt(60_000) - 30_000;
            assertEquals(b.lowerEntry(probe), a.lowerEntry(probe), when + " lower " + probe);
            assertEquals(b.floorKey(probe), a.floorKey(probe), when + " floor " + probe);
            assertEquals(b.ceilingEntry(probe), a.ceilingEntry(probe), when + " ceiling " + probe);
            assertEquals(b.higherKey(probe), a.higherKey(probe), when + " higher " + probe);
            assertEquals(b.get(probe), a.get(probe), when + " get " + probe);
        }
        // Mutations through the view: put inside the range, iterator removal and setValue.
        if (!b.isEmpty()) {
            final Map.Entry<Long, Long> first = b.firstEntry();
            assertEquals(b.put(first.getKey(), 99L), a.put(first.getKey(), 99L), when);
            final Iterator<Map.Entry<Long, Long>> ia = a.entrySet().iterator();
            final Iterator<Map.Entry<Long, Long>> ib = b.entrySet().iterator();
            for (int i = 0; ia.hasNext() && i < 5; i++) {
                final Map.Entry<Long, Long> ea = ia.next();
                final Map.Entry<Long, Long> eb = ib.next();
                assertEquals(eb, ea, when);
                if (i % 2 == 0) {
                    ia.remove();
                    ib.remove();
                } else {
                    assertEquals(eb.setValue(-7L), ea.setValue(-7L), when);
                }
            }
            assertEquals(b.pollLastEntry(), a.pollLastEntry(), when);
        }
    }
}
