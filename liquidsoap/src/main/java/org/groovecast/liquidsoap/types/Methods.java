package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Operations on the methods (fields) of a type: {@code base.{a : t, b : u}}. */
final class Methods {
    private Methods() {}

    /** The methods of a type, outermost first, each name once (the outer hides the inner). */
    record Split(List<Type.Meth> methods, Type base) {}

    static Split split(Type t) {
        List<Type.Meth> methods = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        t = Type.deref(t);
        while (t instanceof Type.Meth m) {
            if (seen.add(m.name())) methods.add(m);
            t = Type.deref(m.base());
        }
        return new Split(methods, t);
    }

    /** The method named {@code name} of {@code t}, or null. */
    static Type.Meth find(Type t, String name) {
        t = Type.deref(t);
        while (t instanceof Type.Meth m) {
            if (m.name().equals(name)) return m;
            t = Type.deref(m.base());
        }
        return null;
    }

    static boolean has(Type t, String name) {
        return find(t, name) != null;
    }

    /** {@code t} without its method {@code name} (every occurrence). */
    static Type hide(Type t, String name) {
        Type d = Type.deref(t);
        if (d instanceof Type.Meth m) {
            if (m.name().equals(name)) return hide(m.base(), name);
            Type base = hide(m.base(), name);
            return base == m.base() ? d : withBase(m, base);
        }
        return t;
    }

    /** {@code t} with its method {@code name} made optional. */
    static Type optional(Type t, String name) {
        Type d = Type.deref(t);
        if (d instanceof Type.Meth m) {
            if (m.name().equals(name)) {
                return new Type.Meth(m.name(), true, m.scheme(), m.jsonName(), m.base());
            }
            Type base = optional(m.base(), name);
            return base == m.base() ? d : withBase(m, base);
        }
        return t;
    }

    /** The methods of {@code from} put around {@code onto}. */
    static Type remeth(Type from, Type onto) {
        Type d = Type.deref(from);
        if (d instanceof Type.Meth m) return withBase(m, remeth(m.base(), onto));
        return onto;
    }

    static Type.Meth withBase(Type.Meth m, Type base) {
        return new Type.Meth(m.name(), m.optional(), m.scheme(), m.jsonName(), base);
    }

    static Type.Meth meth(String name, Type type, Type base) {
        return new Type.Meth(name, false, Type.Scheme.mono(type), null, base);
    }
}
