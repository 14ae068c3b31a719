package io.nearsort.core.memory;

import org.agrona.UnsafeApi;

/**
 * The single gate to Agrona's {@link UnsafeApi}, which needs
 * {@value #REQUIRED_FLAG} on JDK 17 and later.
 *
 * <p>Every off-heap structure calls {@link #requireAvailable()} when it is created, so a JVM started without
 * the flag fails at first use with an error that names it, instead of an {@link IllegalAccessError} deep
 * inside a tree operation.
 *
 * <p>Internal: public so that every module of nearsort checks the flag the same way; not part of the API, may
 * change in any release (its two flag constants are what users need, and the README and error messages name
 * them).
 */
public final class UnsafeAccess {
    /** The JVM option nearsort needs; also carried by the executable jars as {@code Add-Exports}. */
    public static final String REQUIRED_FLAG = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED";
    /**
     * The same option when Agrona is on the module path: there it is the named (automatic) module
     * {@code org.agrona}, to which {@code ALL-UNNAMED} does not export.
     */
    public static final String MODULE_PATH_FLAG = "--add-exports java.base/jdk.internal.misc=org.agrona";

    private static final Throwable UNAVAILABLE = probe();

    private UnsafeAccess() {
    }

    private static Throwable probe() {
        try {
            final long address = UnsafeApi.allocateMemory(Long.BYTES);
            UnsafeApi.putLong(address, 42L);
            final boolean ok = UnsafeApi.getLong(address) == 42L;
            UnsafeApi.freeMemory(address);
            return ok ? null : new IllegalStateException("off-heap read-back mismatch");
        } catch (final Throwable t) { // IllegalAccessError, ExceptionInInitializerError, NoClassDefFoundError
            return t;
        }
    }

    /**
     * Whether off-heap access works in this JVM.
     *
     * @return true when a probe write and read of off-heap memory succeeded at class initialisation
     */
    public static boolean isAvailable() {
        return UNAVAILABLE == null;
    }

    /**
     * Fails with a message naming {@value #REQUIRED_FLAG} when off-heap access is not available
     * ({@value #MODULE_PATH_FLAG} when Agrona is on the module path).
     *
     * @throws IllegalStateException when the JVM was started without the flag
     */
    public static void requireAvailable() {
        if (UNAVAILABLE != null) {
            final boolean modulePath = UnsafeApi.class.getModule().isNamed();
            throw new IllegalStateException("nearsort needs off-heap access through Agrona: start the JVM with "
                    + (modulePath ? MODULE_PATH_FLAG + " (Agrona is on the module path, as module org.agrona)"
                        : REQUIRED_FLAG + " (java -jar picks it up from the jar manifest's Add-Exports entry)"),
                    UNAVAILABLE);
        }
    }
}
