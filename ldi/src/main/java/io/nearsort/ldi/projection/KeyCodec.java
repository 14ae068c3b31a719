package io.nearsort.ldi.projection;

/**
 * Projection keys as the signed {@code long}s the LDI orders: LONG keys as they are, DOUBLE keys through an
 * order-preserving bit mapping (negative values have their magnitude bits flipped), so every key column sorts and
 * range-searches as longs.
 */
public final class KeyCodec {
    private KeyCodec() {
    }

    /**
     * The order-preserving long of {@code value} (NaN rejected).
     *
     * @param value any double but NaN; -0.0 maps to the key of 0.0
     * @return the key: a long that orders as {@code value} does among doubles
     */
    public static long ofDouble(final double value) {
        if (Double.isNaN(value)) {
            throw new IllegalArgumentException("a key cannot be NaN");
        }
        final long bits = Double.doubleToLongBits(value == 0.0 ? 0.0 : value); // -0.0 and 0.0 are one key
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    /**
     * The double {@link #ofDouble} mapped to {@code key}.
     *
     * @param key an ordered key, as {@link #ofDouble} returns it
     * @return the double it stands for (0.0 for the key of -0.0)
     */
    public static double toDouble(final long key) {
        return Double.longBitsToDouble(key ^ ((key >> 63) & Long.MAX_VALUE));
    }

    static long encode(final ColumnType type, final Object value) {
        return type == ColumnType.LONG ? (Long) value : ofDouble((Double) value);
    }
}
