package org.groovecast.host.script;

import groovy.lang.DelegatingMetaClass;
import groovy.lang.GroovySystem;
import groovy.lang.MetaClass;
import groovy.lang.MetaClassRegistry;
import groovy.lang.MissingMethodException;
import org.groovecast.api.Source;

/**
 * Lets scripts call operators as methods of sources, {@code sine(440).tracks(duration: 2)}: sources
 * are plain Java objects from plugins, so a missing method on one is looked up among the operators
 * that take a source first.
 */
final class SourceMetaClasses extends MetaClassRegistry.MetaClassCreationHandle {
    private static volatile boolean installed;

    static synchronized void install() {
        if (installed) return;
        MetaClassRegistry registry = GroovySystem.getMetaClassRegistry();
        registry.setMetaClassCreationHandle(new SourceMetaClasses());
        installed = true;
    }

    @Override
    protected MetaClass createNormalMetaClass(Class theClass, MetaClassRegistry registry) {
        MetaClass normal = super.createNormalMetaClass(theClass, registry);
        return Source.class.isAssignableFrom(theClass) ? new OperatorMethods(normal) : normal;
    }

    private static final class OperatorMethods extends DelegatingMetaClass {
        OperatorMethods(MetaClass delegate) {
            super(delegate);
            initialize();
        }

        @Override
        public Object invokeMethod(Object object, String name, Object[] args) {
            try {
                return super.invokeMethod(object, name, args);
            } catch (MissingMethodException e) {
                return operator(object, name, args, e);
            }
        }

        @Override
        public Object invokeMethod(Object object, String name, Object args) {
            return invokeMethod(object, name, ScriptRuntime.asArray(args));
        }

        @Override
        public Object invokeMethod(
                Class sender,
                Object receiver,
                String name,
                Object[] args,
                boolean isCallToSuper,
                boolean fromInsideClass) {
            try {
                return super.invokeMethod(
                        sender, receiver, name, args, isCallToSuper, fromInsideClass);
            } catch (MissingMethodException e) {
                return operator(receiver, name, args, e);
            }
        }

        private static Object operator(
                Object receiver, String name, Object[] args, MissingMethodException e) {
            ScriptRuntime rt = ScriptRuntime.CURRENT.isBound() ? ScriptRuntime.CURRENT.get() : null;
            if (rt == null || !name.equals(e.getMethod()) || !(receiver instanceof Source s))
                throw e;
            if (rt.functions().find(name).filter(spec -> spec.isSourceMethod()).isEmpty()) throw e;
            return rt.call(name, s, args);
        }
    }
}
