package org.groovecast.liquidsoap.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.engine.ShippedStation;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.prelude.Library;
import org.groovecast.liquidsoap.prelude.Prelude;
import org.junit.jupiter.api.Test;

/**
 * The registry is the contract between the library and the type checker: every name a station's
 * scripts see has a type the checker reads, a function's type declares the parameters it takes, and
 * prelude.liq's definitions have the types their {@code #:} lines declare.
 */
class LibraryTypesTest {
    private static final Library LIBRARY = ShippedStation.library();

    @Test
    void everyRegisteredTypeReads() {
        List<String> unread = new ArrayList<>();
        for (Library.Entry e : LIBRARY.entries()) {
            try {
                SignatureParser.parse(e.type());
            } catch (IllegalArgumentException x) {
                unread.add(e.name() + " : " + e.type() + ": " + x.getMessage());
            }
        }
        assertEquals(List.of(), unread);
        assertTrue(LIBRARY.entries().size() > 300, "entries: " + LIBRARY.entries().size());
    }

    @Test
    void aFunctionTakesTheParametersItsTypeDeclares() {
        List<String> wrong = new ArrayList<>();
        int functions = 0;
        for (Library.Entry e : LIBRARY.entries()) {
            // (a group of settings is a value with fields that reads as a function too)
            if (!(e.value() instanceof Fn f)
                    || !(Type.demeth(SignatureParser.parse(e.type()).type())
                            instanceof Type.Arrow a)) {
                continue;
            }
            functions++;
            List<String> declared = new ArrayList<>();
            for (Type.Arg arg : a.args()) declared.add((arg.optional() ? "?" : "") + arg.label());
            List<String> taken = new ArrayList<>();
            for (Parameter p : f.parameters()) taken.add((p.optional() ? "?" : "") + p.label());
            if (!declared.equals(taken)) {
                wrong.add(e.name() + ": its type declares " + declared + ", it takes " + taken);
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(functions > 250, "functions: " + functions);
    }

    /**
     * prelude.liq checks against the rest of the library, and what it defines may be used as its
     * {@code #:} line says: the declared type is an instance of the inferred one (its variables
     * taken as types of their own, so a declaration cannot claim more than the code gives).
     */
    @Test
    void preludeLiqHasTheTypesItDeclares() {
        Map<String, String> declared = Prelude.declaredTypes();
        Map<String, String> others = new HashMap<>(LIBRARY.types());
        declared.keySet().forEach(others::remove);
        TypeChecker.Checked checked =
                TypeChecker.of(Signatures.of(others)).check(Prelude.program(), null);
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, String> d : declared.entrySet()) {
            Type.Scheme inferred = typeOf(checked, d.getKey());
            if (inferred == null) {
                wrong.add(d.getKey() + ": not defined");
                continue;
            }
            Type instance = Generalization.instantiate(0, inferred);
            Type expected = rigid(SignatureParser.parse(d.getValue()));
            try {
                new Subtyping().sub(instance, expected);
            } catch (RuntimeException e) {
                wrong.add(
                        d.getKey()
                                + ": declared "
                                + d.getValue()
                                + ", inferred "
                                + TypePrinter.print(inferred));
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(declared.size() >= 10, "declared: " + declared.keySet());
    }

    /** The declared type with each variable a type of its own ({@code int} where constrained). */
    private static Type rigid(Type.Scheme s) {
        Type t = Generalization.instantiate(0, s);
        List<TypeVar> vars = Generalization.generalizable(-1, t);
        for (TypeVar v : vars) {
            v.link(
                    Type.Variance.INVARIANT,
                    v.constraints().isEmpty()
                            ? new Type.Ground("rigid" + vars.indexOf(v))
                            : Type.INT);
        }
        return t;
    }

    private static Type.Scheme typeOf(TypeChecker.Checked checked, String path) {
        String[] parts = path.split("\\.");
        Scope.Binding b = checked.names.get(parts[0]);
        if (b == null) return null;
        Type.Scheme s = b.scheme();
        for (int k = 1; k < parts.length; k++) {
            Type.Meth m = Methods.find(s.type(), parts[k]);
            if (m == null) return null;
            s =
                    new Type.Scheme(
                            concat(s.generalized(), m.scheme().generalized()), m.scheme().type());
        }
        return s;
    }

    private static List<TypeVar> concat(List<TypeVar> a, List<TypeVar> b) {
        List<TypeVar> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
