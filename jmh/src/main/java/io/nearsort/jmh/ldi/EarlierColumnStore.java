package io.nearsort.jmh.ldi;

import io.nearsort.ldi.projection.Column;
import io.nearsort.ldi.projection.Projection;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The LDI column store of an earlier build, run beside this build's in the same JVM so the two are measured side by
 * side: its {@code nearsort-core} and {@code nearsort-ldi} jars and Agrona's are loaded by a class loader of their
 * own (parent: the platform loader, so none of this build's classes is seen), and rows go through its row API,
 * {@code append(Object...)}, by a method handle. Configured as {@link StoreKind#ldiOptions} configures this build's:
 * buckets of 1,024 rows, buffers of 64 buckets, no background maintenance, one reader.
 */
final class EarlierColumnStore implements AutoCloseable {
    private final URLClassLoader loader;
    private final Object store;
    private final MethodHandle append;
    private final MethodHandle flush;
    private final MethodHandle close;

    private EarlierColumnStore(final URLClassLoader loader, final Object store) throws ReflectiveOperationException {
        this.loader = loader;
        this.store = store;
        final MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        final Class<?> type = store.getClass();
        this.append = lookup.unreflect(type.getMethod("append", Object[].class))
                .asType(MethodType.methodType(long.class, Object.class, Object[].class));
        this.flush = lookup.unreflect(type.getMethod("flush")).asType(MethodType.methodType(void.class, Object.class));
        this.close = lookup.unreflect(type.getMethod("close")).asType(MethodType.methodType(void.class, Object.class));
    }

    /** Opens a new store of the earlier build (whose jars are {@code jars}) in {@code dir} for {@code table}. */
    static EarlierColumnStore open(final List<Path> jars, final Path dir, final BenchTable table) throws IOException {
        final List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            urls.add(jar.toUri().toURL());
        }
        final URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader());
        try {
            final Class<?> columnType = loader.loadClass("io.nearsort.ldi.projection.Column");
            final List<Object> columns = new ArrayList<>();
            for (Column c : table.schema().columns()) {
                columns.add(switch (c.type()) {
                    case LONG -> columnType.getMethod("longColumn", String.class).invoke(null, c.name());
                    case DOUBLE -> columnType.getMethod("doubleColumn", String.class).invoke(null, c.name());
                    case FIXED_STRING -> columnType.getMethod("fixedString", String.class, int.class)
                            .invoke(null, c.name(), c.width());
                    case VAR_STRING -> columnType.getMethod("varString", String.class).invoke(null, c.name());
                });
            }
            final Object schema = loader.loadClass("io.nearsort.ldi.projection.Schema").getMethod("of", List.class)
                    .invoke(null, columns);
            final Class<?> projectionType = loader.loadClass("io.nearsort.ldi.projection.Projection");
            final List<Object> projections = new ArrayList<>();
            for (Projection p : table.projections()) {
                projections.add(projectionType.getConstructor(String.class, String.class, List.class)
                        .newInstance(p.name(), p.key(), p.columns()));
            }
            final Class<?> optionsType = loader.loadClass("io.nearsort.ldi.projection.ColumnStoreOptions");
            Object options = optionsType.getMethod("defaults").invoke(null);
            options = optionsType.getMethod("withBuckets", int.class, int.class).invoke(options,
                    StoreKind.BUCKET_ROWS, StoreKind.BUFFER_ROWS);
            options = optionsType.getMethod("withMaintenance", int.class).invoke(options, 0);
            options = optionsType.getMethod("withReaders", int.class, double.class, int.class).invoke(options, 1,
                    2.0, StoreKind.THETA_GROUP);
            final Method open = loader.loadClass("io.nearsort.ldi.projection.ColumnStore").getMethod("open",
                    Path.class, schema.getClass(), List.class, optionsType);
            return new EarlierColumnStore(loader, open.invoke(null, dir, schema, projections, options));
        } catch (ReflectiveOperationException e) {
            loader.close();
            throw new IOException("the earlier build in " + jars + " does not have the expected API: " + e, e);
        }
    }

    /** {@code append(Object...)} of the earlier build. */
    long append(final Object[] row) {
        try {
            return (long) append.invokeExact(store, row);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    void flush() throws IOException {
        try {
            flush.invokeExact(store);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            close.invokeExact(store);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            loader.close();
        }
    }
}
