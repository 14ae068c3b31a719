package io.nearsort.flink;

import org.apache.flink.types.Row;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Locale;
import java.util.Set;

/** Ready-made {@link RowMapper}s: POJOs and Flink {@link Row}s, read by column name. */
public final class RowMappers {
    private RowMappers() {
    }

    /**
     * Reads each column from the POJO's public field of the column's name, or its public getter
     * ({@code getName()}, {@code name()} for records, {@code isName()}).
     */
    public static <T> RowMapper<T> pojo(final Class<T> type) {
        return new PojoMapper<>(type);
    }

    /**
     * Reads each column from the {@link Row}'s field of the column's name (a row with field names), or, for a row
     * accessed by position, from the field at the column's position in the schema.
     */
    public static RowMapper<Row> row() {
        return new FlinkRowMapper();
    }

    /** A POJO read through method handles resolved on first use (handles are not serializable). */
    private static final class PojoMapper<T> implements RowMapper<T> {
        private static final long serialVersionUID = 1L;
        private final Class<T> type;
        private transient MethodHandle[] getters;

        PojoMapper(final Class<T> type) {
            this.type = type;
        }

        @Override
        public void map(final T element, final RowWriter row) {
            if (getters == null) {
                getters = resolve(type, row);
            }
            for (int c = 0; c < getters.length; c++) {
                final Object v;
                try {
                    v = getters[c].invoke(element);
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Throwable t) {
                    throw new IllegalStateException("reading column " + row.schema().columns().get(c).name()
                            + " from " + type.getName() + " failed", t);
                }
                row.set(c, v);
            }
        }

        private static MethodHandle[] resolve(final Class<?> type, final RowWriter row) {
            final MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            final MethodHandle[] handles = new MethodHandle[row.schema().size()];
            for (int c = 0; c < handles.length; c++) {
                final String name = row.schema().columns().get(c).name();
                handles[c] = getter(lookup, type, name);
            }
            return handles;
        }

        private static MethodHandle getter(final MethodHandles.Lookup lookup, final Class<?> type,
                                           final String name) {
            final String capital = name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
            for (String m : new String[] {"get" + capital, name, "is" + capital}) {
                try {
                    final Method method = type.getMethod(m);
                    if (!Modifier.isStatic(method.getModifiers()) && method.getReturnType() != void.class) {
                        return lookup.unreflect(method);
                    }
                } catch (NoSuchMethodException | IllegalAccessException e) {
                    // try the next spelling
                }
            }
            try {
                final Field f = type.getField(name);
                if (!Modifier.isStatic(f.getModifiers())) {
                    return lookup.unreflectGetter(f);
                }
            } catch (NoSuchFieldException | IllegalAccessException e) {
                // reported below
            }
            throw new IllegalArgumentException(type.getName() + " has no public field " + name + " nor a public"
                    + " getter get" + capital + "()/" + name + "()/is" + capital + "() for column " + name);
        }
    }

    private static final class FlinkRowMapper implements RowMapper<Row> {
        private static final long serialVersionUID = 1L;

        @Override
        public void map(final Row element, final RowWriter row) {
            final Set<String> names = element.getFieldNames(false);
            for (int c = 0; c < row.schema().size(); c++) {
                final String name = row.schema().columns().get(c).name();
                if (names != null) {
                    if (!names.contains(name)) {
                        throw new IllegalArgumentException("the row has no field " + name + " (fields: " + names
                                + ")");
                    }
                    row.set(c, element.getField(name));
                } else {
                    if (c >= element.getArity()) {
                        throw new IllegalArgumentException("the row has " + element.getArity() + " fields; column "
                                + name + " is at position " + c);
                    }
                    row.set(c, element.getField(c));
                }
            }
        }
    }
}
