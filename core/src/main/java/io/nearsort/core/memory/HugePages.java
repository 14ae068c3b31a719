package io.nearsort.core.memory;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Optional;

/**
 * Asks Linux to back large slabs with transparent huge pages ({@code madvise(MADV_HUGEPAGE)}).
 *
 * <p>Why: a slab is touched page by page as trees grow, and with 4 KiB pages each first touch is a page fault
 * (about 1–2 µs here). Filling 10M entries into bulk-loaded leaves faults ~40,000 times: 60 ms of the SA
 * B+-tree's 100 ms sorted ingest on the reference machine. With 2 MiB pages the faults drop 512-fold, and random
 * lookups miss the TLB less. Kernels in the common {@code madvise} THP mode give huge pages only to memory that
 * asks for them; Java has no call for that before the Foreign Function and Memory API.
 *
 * <p>So the advice is given where it can be without native code of our own: on JDK 22 and later (the final
 * {@code java.lang.foreign} API, reached reflectively since nearsort targets Java 17), on Linux, and only when
 * native access is enabled for nearsort's module ({@code --enable-native-access=ALL-UNNAMED}, or the
 * {@code Enable-Native-Access} manifest entry of an executable jar), so that the JVM never prints its
 * restricted-method warning into a user's logs. Elsewhere it is a no-op; on JDK 17–21 the same effect comes from
 * glibc, outside the JVM: {@code GLIBC_TUNABLES=glibc.malloc.hugetlb=1} makes {@code malloc} advise every
 * large allocation. {@link #status()} says which case applies; {@code -Dnearsort.hugePages=false} turns the
 * advice off for every arena of the JVM ({@link PageArena.Builder#hugePages(boolean)} for one arena).
 */
public final class HugePages {
    /** {@code MADV_HUGEPAGE} of Linux (the same value on every architecture). */
    private static final int MADV_HUGEPAGE = 14;
    /** The huge page size of x86-64 and the usual arm64 configuration; smaller regions are not advised. */
    public static final long HUGE_PAGE_BYTES = 2L << 20;
    /** The JVM option that lets nearsort give the advice on JDK 22 and later. */
    public static final String NATIVE_ACCESS_FLAG = "--enable-native-access=ALL-UNNAMED";
    /** The system property that turns the advice off when {@code false} (default on). */
    public static final String ENABLED_PROPERTY = "nearsort.hugePages";

    /** Why {@code -Dnearsort.hugePages} is unusable, or null when it is true, false or unset. */
    private static final String PROPERTY_ERROR;
    private static final MethodHandle MADVISE;
    private static final String STATUS;

    static {
        final String enabled = System.getProperty(ENABLED_PROPERTY, "true");
        PROPERTY_ERROR = enabled.equals("true") || enabled.equals("false") ? null
                : "-D" + ENABLED_PROPERTY + " must be true or false (got: " + enabled + ")";
        MethodHandle handle = null;
        String status;
        try {
            handle = lookUpMadvise();
            status = "huge pages advised (madvise MADV_HUGEPAGE) for slabs of at least 2 MiB";
        } catch (final UnsupportedOperationException e) {
            status = e.getMessage();
        } catch (final ReflectiveOperationException | RuntimeException | LinkageError e) {
            status = "no huge page advice: the madvise downcall could not be linked (" + e + ")";
        }
        MADVISE = handle;
        STATUS = handle == null
                ? statusWithoutAdvice(status, System.getenv("GLIBC_TUNABLES"), Runtime.version().feature())
                : status;
    }

    /**
     * The status when nearsort gives no advice itself ({@code reason}): glibc may still advise every large
     * {@code malloc}, slabs included, when {@code glibcTunables} (the {@code GLIBC_TUNABLES} environment variable,
     * colon-separated {@code name=value} pairs; null when unset) sets {@code glibc.malloc.hugetlb} to 1 (THP
     * advice) or 2 (reserved huge pages). Before JDK 22 ({@code jdkFeature}) the status says how to get that.
     */
    static String statusWithoutAdvice(final String reason, final String glibcTunables, final int jdkFeature) {
        if (glibcTunables != null) {
            for (final String tunable : glibcTunables.split(":")) {
                if (tunable.equals("glibc.malloc.hugetlb=1") || tunable.equals("glibc.malloc.hugetlb=2")) {
                    return "huge pages advised by glibc for large allocations, slabs included (GLIBC_TUNABLES="
                            + glibcTunables + "), not by nearsort (" + reason + ")";
                }
            }
        }
        return jdkFeature < 22 ? reason + "; GLIBC_TUNABLES=glibc.malloc.hugetlb=1 gives the same effect from outside"
                : reason;
    }

    private HugePages() {
    }

    /**
     * Fails when {@code -Dnearsort.hugePages} is neither {@code true} nor {@code false}; every arena that may
     * advise checks it when it is built, so a typo surfaces before anything is stored.
     *
     * @throws IllegalArgumentException naming the property and its value
     */
    public static void checkConfiguration() {
        if (PROPERTY_ERROR != null) {
            throw new IllegalArgumentException(PROPERTY_ERROR);
        }
    }

    /**
     * Whether {@link #advise} asks the kernel for huge pages in this JVM.
     *
     * @return true when the {@code madvise} downcall is available; {@link #status()} says why not otherwise
     */
    public static boolean isAvailable() {
        return MADVISE != null;
    }

    /**
     * Whether huge pages are advised here, or why not (for logs and {@code nearsort env}-style reports).
     *
     * @return a one-line, human-readable status
     */
    public static String status() {
        return STATUS;
    }

    /**
     * Advises huge pages for the whole 4 KiB pages of {@code [address, address + length)}.
     *
     * @param address the start of the region, off-heap; rounded up to a 4 KiB boundary
     * @param length the region's length in bytes; the end is rounded down to a 4 KiB boundary
     * @return whether the kernel accepted the advice; false when unavailable or the region is under 2 MiB
     */
    public static boolean advise(final long address, final long length) {
        if (MADVISE == null || length < HUGE_PAGE_BYTES) {
            return false;
        }
        final long start = (address + 4095) & -4096L;
        final long end = (address + length) & -4096L;
        try {
            return (int) MADVISE.invokeWithArguments(start, end - start, MADV_HUGEPAGE) == 0;
        } catch (final Throwable t) { // the downcall itself declares Throwable; madvise cannot throw
            return false;
        }
    }

    private static MethodHandle lookUpMadvise() throws ReflectiveOperationException {
        if (PROPERTY_ERROR != null) {
            throw new UnsupportedOperationException(PROPERTY_ERROR);
        }
        if (System.getProperty(ENABLED_PROPERTY, "true").equals("false")) {
            throw new UnsupportedOperationException("no huge page advice: turned off by -D" + ENABLED_PROPERTY
                    + "=false");
        }
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
            throw new UnsupportedOperationException("no huge page advice: not Linux");
        }
        if (Runtime.version().feature() < 22) {
            throw new UnsupportedOperationException("no huge page advice: JDK " + Runtime.version().feature()
                    + " has no final java.lang.foreign (JDK 22+)");
        }
        final Module module = HugePages.class.getModule();
        if (!(boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(module)) {
            throw new UnsupportedOperationException("no huge page advice: native access is not enabled for "
                    + (module.isNamed() ? module.getName() : "the unnamed module") + " (start the JVM with "
                    + NATIVE_ACCESS_FLAG + ")");
        }
        final Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
        final Class<?> layoutClass = Class.forName("java.lang.foreign.MemoryLayout");
        final Class<?> valueLayoutClass = Class.forName("java.lang.foreign.ValueLayout");
        final Class<?> descriptorClass = Class.forName("java.lang.foreign.FunctionDescriptor");
        final Class<?> segmentClass = Class.forName("java.lang.foreign.MemorySegment");
        final Class<?> optionClass = Class.forName("java.lang.foreign.Linker$Option");
        final Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
        final Object symbols = linkerClass.getMethod("defaultLookup").invoke(linker);
        final Method find = Class.forName("java.lang.foreign.SymbolLookup").getMethod("find", String.class);
        final Optional<?> madvise = (Optional<?>) find.invoke(symbols, "madvise");
        if (madvise.isEmpty()) {
            throw new UnsupportedOperationException("no huge page advice: the C library has no madvise");
        }
        // int madvise(void *addr, size_t length, int advice): pointers and size_t are 64-bit integers here.
        final Object int32 = valueLayoutClass.getField("JAVA_INT").get(null);
        final Object int64 = valueLayoutClass.getField("JAVA_LONG").get(null);
        final Object arguments = java.lang.reflect.Array.newInstance(layoutClass, 3);
        java.lang.reflect.Array.set(arguments, 0, int64);
        java.lang.reflect.Array.set(arguments, 1, int64);
        java.lang.reflect.Array.set(arguments, 2, int32);
        final Object descriptor = descriptorClass.getMethod("of", layoutClass, arguments.getClass())
                .invoke(null, int32, arguments);
        final Object noOptions = java.lang.reflect.Array.newInstance(optionClass, 0);
        return (MethodHandle) linkerClass.getMethod("downcallHandle", segmentClass, descriptorClass,
                noOptions.getClass()).invoke(linker, madvise.get(), descriptor, noOptions);
    }
}
