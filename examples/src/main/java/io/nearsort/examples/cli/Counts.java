package io.nearsort.examples.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.Locale;

/**
 * Parses counts as people write them: {@code 10000000}, {@code 10_000_000}, {@code 10,000,000}, {@code 10M},
 * {@code 500k}, {@code 1G} (decimal multipliers).
 */
public final class Counts implements ITypeConverter<Long> {
    @Override
    public Long convert(final String text) {
        return parse(text);
    }

    /** The count {@code text} denotes. */
    public static long parse(final String text) {
        String digits = text.strip().replace("_", "").replace(",", "");
        long multiplier = 1;
        if (!digits.isEmpty()) {
            switch (Character.toUpperCase(digits.charAt(digits.length() - 1))) {
                case 'K':
                    multiplier = 1_000;
                    break;
                case 'M':
                    multiplier = 1_000_000;
                    break;
                case 'G':
                    multiplier = 1_000_000_000;
                    break;
                default:
                    break;
            }
        }
        if (multiplier != 1) {
            digits = digits.substring(0, digits.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(digits), multiplier);
        } catch (final NumberFormatException | ArithmeticException e) {
            throw new TypeConversionException(String.format(Locale.ROOT,
                    "'%s' is not a count (examples: 1000000, 1_000_000, 1M, 500k)", text));
        }
    }
}
