package dev.dmmodel.spi;

import java.util.Iterator;
import java.util.ServiceLoader;

/** Finds the {@link ModelProvider} and the {@link FormatProvider} once. */
public final class ModelProviders {
    private static volatile ModelProvider provider;
    private static volatile FormatProvider formats;

    private ModelProviders() {
    }

    /**
     * The provider on the class or module path.
     *
     * @throws IllegalStateException if {@code dmmodel-impl} is missing
     */
    public static ModelProvider get() {
        ModelProvider p = provider;
        if (p == null) {
            synchronized (ModelProviders.class) {
                p = provider;
                if (p == null) {
                    Iterator<ModelProvider> it = ServiceLoader.load(ModelProvider.class,
                            ModelProviders.class.getClassLoader()).iterator();
                    if (!it.hasNext()) {
                        throw new IllegalStateException("no dmmodel implementation found: add dev.dmmodel:dmmodel-impl "
                                + "to the class path or module path");
                    }
                    p = it.next();
                    provider = p;
                }
            }
        }
        return p;
    }

    /**
     * The format readers and writers on the class or module path.
     *
     * @throws IllegalStateException if {@code dmmodel-impl} is missing
     */
    public static FormatProvider formats() {
        FormatProvider f = formats;
        if (f == null) {
            synchronized (ModelProviders.class) {
                f = formats;
                if (f == null) {
                    Iterator<FormatProvider> it = ServiceLoader.load(FormatProvider.class,
                            ModelProviders.class.getClassLoader()).iterator();
                    if (!it.hasNext()) {
                        throw new IllegalStateException("no dmmodel format readers found: add "
                                + "dev.dmmodel:dmmodel-impl to the class path or module path");
                    }
                    f = it.next();
                    formats = f;
                }
            }
        }
        return f;
    }
}
