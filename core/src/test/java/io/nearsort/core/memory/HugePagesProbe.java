package io.nearsort.core.memory;

/** Run in a child JVM by {@link HugePagesTest}: prints whether huge pages are advised and why, then builds an arena. */
public final class HugePagesProbe {
    private HugePagesProbe() {
    }

    public static void main(final String[] args) {
        System.out.println("available=" + HugePages.isAvailable() + " status=" + HugePages.status());
        try (PageArena arena = PageArena.builder().maxSlabBytes(4L << 20).build()) {
            for (int i = 0; i < 2048; i++) {
                arena.allocate();
            }
            System.out.println("advised=" + arena.bytesAdvisedHugePages());
        } catch (final IllegalArgumentException e) {
            System.out.println("refused: " + e.getMessage());
        }
    }
}
