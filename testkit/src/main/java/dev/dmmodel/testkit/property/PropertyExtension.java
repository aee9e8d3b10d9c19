package dev.dmmodel.testkit.property;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Runs {@link PropertyTest} methods as properties. JUnit resolves the {@link ForAll} parameters to
 * placeholders; the extension then skips JUnit's single invocation and calls the method itself once per
 * try with generated arguments (other parameters keep what their resolvers gave), through
 * {@link Property}. Registered by {@link PropertyTest}; there is no need to register it by hand.
 */
public final class PropertyExtension implements ParameterResolver, InvocationInterceptor {

    /** Made by JUnit for each {@link PropertyTest} (the annotation registers it). */
    public PropertyExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.isAnnotated(ForAll.class)
                && extensionContext.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, PropertyTest.class))
                .orElse(false);
    }

    /** A placeholder: the real values are generated per try when the method is intercepted. */
    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Class<?> t = parameterContext.getParameter().getType();
        if (!t.isPrimitive()) {
            return null;
        }
        if (t == boolean.class) {
            return false;
        }
        if (t == char.class) {
            return '\0';
        }
        if (t == double.class || t == float.class) {
            return t == double.class ? (Object) 0.0 : (Object) 0.0f;
        }
        if (t == long.class) {
            return 0L;
        }
        if (t == int.class) {
            return 0;
        }
        return t == short.class ? (Object) (short) 0 : (Object) (byte) 0;
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                    ExtensionContext extensionContext) {
        invocation.skip();
        Method method = invocationContext.getExecutable();
        Object target = invocationContext.getTarget().orElse(null);
        PropertyTest config = AnnotationSupport.findAnnotation(method, PropertyTest.class)
                .orElseThrow(() -> new ExtensionConfigurationException(method + " is not a @PropertyTest"));
        Parameter[] params = method.getParameters();
        List<Object> resolved = invocationContext.getArguments();
        List<Integer> generated = new ArrayList<>();
        List<Gen<?>> gens = new ArrayList<>();
        for (int i = 0; i < params.length; i++) {
            Optional<ForAll> forAll = AnnotationSupport.findAnnotation(params[i], ForAll.class);
            if (forAll.isPresent()) {
                generated.add(i);
                gens.add(generator(method, target, params[i], forAll.get().value()));
            }
        }
        Gen<Object[]> args = s -> {
            Object[] out = resolved.toArray();
            for (int k = 0; k < generated.size(); k++) {
                out[generated.get(k)] = s.draw(gens.get(k));
            }
            return out;
        };
        String name = method.getDeclaringClass().getSimpleName() + "." + method.getName();
        PropertyResult result = Property.forAll(args)
                .named(name)
                .tries(config.tries())
                .seed(config.seed())
                .maxShrinks(config.maxShrinks())
                .describedBy(a -> describe(params, generated, a))
                .check(a -> ReflectionSupport.invokeMethod(method, target, a));
        extensionContext.publishReportEntry("property", result.toString());
    }

    private static Gen<?> generator(Method method, Object target, Parameter param, String name) {
        if (name.isEmpty()) {
            return defaultGenerator(method, param);
        }
        Class<?> owner = target != null ? target.getClass() : method.getDeclaringClass();
        Method m = ReflectionSupport.findMethod(owner, name).orElseThrow(() -> new ExtensionConfigurationException(
                "@ForAll(\"" + name + "\") on parameter " + param.getName() + " of " + method.getName()
                        + ": no method " + name + "() in " + owner.getName() + " or its superclasses"));
        if (!Gen.class.isAssignableFrom(m.getReturnType())) {
            throw new ExtensionConfigurationException("@ForAll(\"" + name + "\"): " + m + " returns "
                    + m.getReturnType().getName() + ", not a Gen");
        }
        Object gen = ReflectionSupport.invokeMethod(m, Modifier.isStatic(m.getModifiers()) ? null : target);
        if (gen == null) {
            throw new ExtensionConfigurationException("@ForAll(\"" + name + "\"): " + m + " returned null");
        }
        Class<?> expected = box(param.getType());
        return ((Gen<?>) gen).map(v -> {
            if (v != null && !expected.isInstance(v)) {
                throw new ExtensionConfigurationException("@ForAll(\"" + name + "\") made a " + v.getClass().getName()
                        + " for parameter " + param.getName() + " of type " + param.getType().getName());
            }
            return v;
        });
    }

    private static Gen<?> defaultGenerator(Method method, Parameter param) {
        Class<?> t = box(param.getType());
        if (t == Integer.class) {
            return Gen.choose(Integer.MIN_VALUE, Integer.MAX_VALUE, 0).map(Long::intValue);
        }
        if (t == Long.class) {
            return Gen.choose(Long.MIN_VALUE / 2, Long.MAX_VALUE / 2, 0);
        }
        if (t == Boolean.class) {
            return Gen.booleans();
        }
        throw new ExtensionConfigurationException("@ForAll on parameter " + param.getName() + " of "
                + method.getName() + ": name the method that returns its generator, @ForAll(\"name\")"
                + " (only int, long and boolean have a default)");
    }

    private static String describe(Parameter[] params, List<Integer> generated, Object[] args) {
        if (generated.size() == 1) {
            return Property.describe(args[generated.get(0)]);
        }
        StringBuilder sb = new StringBuilder();
        for (int i : generated) {
            String text = Property.describe(args[i]);
            if (sb.length() > 0) {
                sb.append('\n');
            }
            String label = params[i].isNamePresent() ? params[i].getName() : "parameter " + (i + 1);
            sb.append(label).append(" = ").append(text.contains("\n") ? "\n" + Property.indent(text) : text);
        }
        return sb.toString();
    }

    private static Class<?> box(Class<?> t) {
        if (!t.isPrimitive()) {
            return t;
        }
        if (t == int.class) {
            return Integer.class;
        }
        if (t == long.class) {
            return Long.class;
        }
        if (t == boolean.class) {
            return Boolean.class;
        }
        if (t == double.class) {
            return Double.class;
        }
        if (t == float.class) {
            return Float.class;
        }
        if (t == char.class) {
            return Character.class;
        }
        return t == short.class ? Short.class : Byte.class;
    }
}
