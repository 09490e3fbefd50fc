package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a type as Liquidsoap prints it (its repr.ml), on one line: {@code (int, ?label : string)
 * -> unit}, {@code string.{duration : float}}, {@code source(audio=pcm(stereo))}, {@code 'A where
 * 'A is a number type}.
 */
final class TypePrinter {
    private final StringBuilder out = new StringBuilder();
    private final Map<String, List<Constraint>> constrained = new LinkedHashMap<>();

    private TypePrinter() {}

    static String print(Type t) {
        return print(Repr.of(t));
    }

    static String print(Type.Scheme s) {
        return print(Repr.of(s.type(), s.generalized()));
    }

    static String print(Repr r) {
        if (r instanceof Repr.Var v && !v.constraints().isEmpty()) {
            boolean universal = Character.isLowerCase(v.name().charAt(1));
            return (universal ? "anything that is " : "something that is ") + describe(v);
        }
        TypePrinter p = new TypePrinter();
        p.print(r, false);
        if (!p.constrained.isEmpty()) p.where();
        return p.out.toString();
    }

    private static String describe(Repr.Var v) {
        List<String> parts = new ArrayList<>();
        for (Constraint c : v.constraints()) parts.add(c.description());
        return String.join(" and ", parts);
    }

    private void where() {
        // variables with the same constraints are said together: 'A, 'B is a number type
        Map<String, List<String>> byDescription = new TreeMap<>();
        for (var e : constrained.entrySet()) {
            String d = describe(new Repr.Var(e.getKey(), e.getValue()));
            byDescription.computeIfAbsent(d, k -> new ArrayList<>()).add(e.getKey());
        }
        out.append(" where ");
        boolean first = true;
        for (var e : byDescription.entrySet()) {
            if (!first) out.append(", ");
            first = false;
            out.append(String.join(", ", e.getValue())).append(" is ").append(e.getKey());
        }
    }

    private void print(Repr r, boolean par) {
        switch (r) {
            case Repr.Constr c
                    when (c.name().equals("source") || c.name().equals("format"))
                            && c.params().size() == 1
                            && c.params().getFirst() instanceof Repr.Meth ->
                    tracks(c);
            case Repr.Constr c when c.params().isEmpty() -> out.append(c.name());
            case Repr.Constr c when c.name().equals("none") -> out.append("none");
            case Repr.Constr c -> {
                out.append(c.name()).append('(');
                for (int i = 0; i < c.params().size(); i++) {
                    if (i > 0) out.append(',');
                    print(c.params().get(i), false);
                }
                out.append(')');
            }
            case Repr.Tuple t when t.elements().isEmpty() -> out.append("unit");
            case Repr.Tuple t -> {
                if (par) out.append('(');
                for (int i = 0; i < t.elements().size(); i++) {
                    if (i > 0) out.append(" * ");
                    print(t.elements().get(i), true);
                }
                if (par) out.append(')');
            }
            case Repr.Nullable n -> {
                print(n.of(), true);
                out.append('?');
            }
            case Repr.Meth m -> methods(m);
            case Repr.ListOf l -> {
                out.append('[');
                print(l.element(), false);
                out.append(']');
                if (l.jsonObject()) out.append(" as json.object");
            }
            case Repr.Getter g -> {
                out.append('{');
                print(g.of(), false);
                out.append('}');
            }
            case Repr.Var v -> {
                if (v.constraints().size() == 1 && v.constraints().getFirst().shortForm() != null) {
                    out.append(v.constraints().getFirst().shortForm());
                } else {
                    out.append(v.name());
                    if (!v.constraints().isEmpty())
                        constrained.putIfAbsent(v.name(), v.constraints());
                }
            }
            case Repr.Arrow a -> {
                if (par) out.append('(');
                out.append('(');
                for (int i = 0; i < a.args().size(); i++) {
                    Repr.Arg arg = a.args().get(i);
                    if (i > 0) out.append(", ");
                    if (arg.optional()) out.append('?');
                    if (!arg.label().isEmpty()) out.append(arg.label()).append(" : ");
                    print(arg.type(), true);
                }
                out.append(") -> ");
                print(a.result(), false);
                if (par) out.append(')');
            }
            case Repr.Ellipsis e -> out.append('_');
            case Repr.RangeEllipsis e -> out.append("...");
        }
    }

    /** A record or a value with methods: {@code {a : int}}, {@code string.{a : int}}. */
    private void methods(Repr.Meth first) {
        List<Repr.Meth> methods = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        Repr base = first;
        while (base instanceof Repr.Meth m) {
            if (!seen.contains(m.name())) {
                seen.add(m.name());
                methods.add(m);
            }
            base = m.base();
        }
        methods.sort(Comparator.comparing(Repr.Meth::name));
        if (base instanceof Repr.Tuple t && t.elements().isEmpty()) {
            out.append('{');
        } else {
            print(base, true);
            out.append(".{");
        }
        for (int i = 0; i < methods.size(); i++) {
            Repr.Meth m = methods.get(i);
            if (i > 0) out.append(", ");
            String optional = m.optional() ? "?" : "";
            if (m.jsonName() != null) {
                out.append('"').append(m.jsonName()).append('"').append(optional).append(" as ");
            }
            out.append(m.name()).append(optional).append(" : ");
            for (String g : m.generalized().stream().sorted().toList()) out.append(g).append('.');
            print(m.type(), m.jsonName() != null);
        }
        out.append('}');
    }

    /** {@code source(audio=pcm(stereo), video=canvas)}: a never track is not shown. */
    private void tracks(Repr.Constr c) {
        Map<String, Repr.Meth> fields = new TreeMap<>();
        Repr base = c.params().getFirst();
        while (base instanceof Repr.Meth m) {
            boolean never =
                    m.type() instanceof Repr.Constr n
                            && n.name().equals("never")
                            && n.params().isEmpty();
            if (!fields.containsKey(m.name()) && !never) fields.put(m.name(), m);
            if (never) fields.putIfAbsent(m.name(), null);
            base = m.base();
        }
        out.append(c.name()).append('(');
        boolean first = true;
        for (Repr.Meth m : fields.values()) {
            if (m == null) continue;
            if (!first) out.append(", ");
            first = false;
            if (m.optional()) out.append('?');
            out.append(m.name()).append('=');
            print(m.type(), false);
        }
        if (!(base instanceof Repr.Tuple t && t.elements().isEmpty())) {
            if (!first) out.append(", ");
            print(base, false);
        }
        out.append(')');
    }
}
