package dev.dmmodel.spi;

import java.util.Iterator;
import java.util.ServiceLoader;

/** Finds the {@link ModelProvider} once. */
public final class ModelProviders {
    private static volatile ModelProvider provider;

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
}
