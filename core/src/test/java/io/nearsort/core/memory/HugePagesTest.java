package io.nearsort.core.memory;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Huge page advice: given on Linux from JDK 22 on when native access is enabled (Surefire passes
 * {@value HugePages#NATIVE_ACCESS_FLAG}), otherwise refused with the reason; arenas count what they advised.
 */
class HugePagesTest {
    private static final boolean EXPECTED = Runtime.version().feature() >= 22
            && System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux");

    @Test
    void availableExactlyWhereTheJvmAllowsTheDowncall() {
        assertEquals(EXPECTED, HugePages.isAvailable(), HugePages.status());
        if (!EXPECTED && Runtime.version().feature() < 22) {
            assertTrue(HugePages.status().contains("JDK " + Runtime.version().feature()), HugePages.status());
            assertTrue(HugePages.status().contains("GLIBC_TUNABLES"), HugePages.status());
        }
    }

    @Test
    void arenasAdviseLargeSlabsOnlyAndOnlyWhenAsked() {
        final PageArena advised = PageArena.builder().build();
        try (PageArena plain = PageArena.builder().hugePages(false).build()) {
            long touched = 0;
            for (int i = 0; i < 3000; i++) { // slabs of 64 KiB, 128 KiB, ... 8 MiB: the last three are >= 2 MiB
                advised.allocate();
                plain.allocate();
                touched += advised.pageSize();
            }
            assertEquals(touched, advised.bytesInUse());
            assertEquals(0, plain.bytesAdvisedHugePages());
            if (EXPECTED) {
                assertEquals((2L + 4 + 8) << 20, advised.bytesAdvisedHugePages());
            } else {
                assertEquals(0, advised.bytesAdvisedHugePages());
            }
        } finally {
            advised.close();
        }
        assertEquals(0, advised.bytesAdvisedHugePages());
        assertEquals(0, advised.bytesAllocated());
    }

    @Test
    void regionsBelowOneHugePageAreNotAdvised() {
        final long region = org.agrona.UnsafeApi.allocateMemory(2 * HugePages.HUGE_PAGE_BYTES);
        try {
            assertFalse(HugePages.advise(region, HugePages.HUGE_PAGE_BYTES - 4096));
            assertEquals(EXPECTED, HugePages.advise(region, 2 * HugePages.HUGE_PAGE_BYTES));
        } finally {
            org.agrona.UnsafeApi.freeMemory(region);
        }
    }

    @Test
    void thePropertyTurnsTheAdviceOffAndATypoIsRefusedBeforeAnythingIsStored() throws Exception {
        String output = probe(HugePages.NATIVE_ACCESS_FLAG, "-Dnearsort.hugePages=false");
        assertTrue(output.contains("available=false status=no huge page advice: turned off by -Dnearsort.hugePages"
                + "=false"), output);
        assertTrue(output.contains("advised=0"), output);
        output = probe(HugePages.NATIVE_ACCESS_FLAG, "-Dnearsort.hugePages=yes");
        assertTrue(output.contains("refused: -Dnearsort.hugePages must be true or false (got: yes)"), output);
    }

    @Test
    void withoutNativeAccessTheJvmPrintsNoWarningAndTheStatusNamesTheFlag() throws Exception {
        final String output = probe();
        assertTrue(output.contains("available=false"), output);
        assertTrue(output.contains("advised=0"), output);
        assertFalse(output.contains("WARNING"), output);
        if (EXPECTED) {
            assertTrue(output.contains(HugePages.NATIVE_ACCESS_FLAG), output);
        }
    }

    @Test
    void theStatusSaysWhenGlibcAdvisesHugePagesInstead() throws Exception {
        final String reason = "no huge page advice: native access is not enabled";
        assertEquals(reason, HugePages.statusWithoutAdvice(reason, null, 25));
        final String hint = "; GLIBC_TUNABLES=glibc.malloc.hugetlb=1 gives the same effect from outside";
        assertEquals(reason + hint, HugePages.statusWithoutAdvice(reason, null, 17));
        for (final String ignored : List.of("glibc.malloc.hugetlb=0", "glibc.malloc.hugetlb=10",
                "xglibc.malloc.hugetlb=1", "")) {
            assertEquals(reason, HugePages.statusWithoutAdvice(reason, ignored, 25), ignored);
            assertEquals(reason + hint, HugePages.statusWithoutAdvice(reason, ignored, 21), ignored);
        }
        for (final String tunables : List.of("glibc.malloc.hugetlb=1", "glibc.malloc.hugetlb=2",
                "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1")) {
            for (final int jdk : new int[] {17, 25}) {
                final String status = HugePages.statusWithoutAdvice(reason, tunables, jdk);
                assertEquals("huge pages advised by glibc for large allocations, slabs included (GLIBC_TUNABLES="
                        + tunables + "), not by nearsort (" + reason + ")", status);
            }
        }
        // In a JVM started with the variable (and without native access, so nearsort gives no advice itself):
        final String output = probeIn("glibc.malloc.hugetlb=1");
        assertTrue(output.contains("available=false status=huge pages advised by glibc"), output);
        assertTrue(output.contains("advised=0"), output);
    }

    /** Runs {@link HugePagesProbe} in a child JVM with {@code options}; its standard output and error. */
    private static String probe(final String... options) throws IOException, InterruptedException {
        return probeIn(null, options);
    }

    /** {@link #probe} with {@code GLIBC_TUNABLES} set to {@code glibcTunables} (left as inherited when null). */
    private static String probeIn(final String glibcTunables, final String... options)
            throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"));
        command.addAll(List.of(options));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), HugePagesProbe.class.getName()));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (glibcTunables != null) {
            builder.environment().put("GLIBC_TUNABLES", glibcTunables);
        }
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child JVM finished");
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
