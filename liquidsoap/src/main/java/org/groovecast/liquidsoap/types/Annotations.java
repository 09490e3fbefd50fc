package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;

/**
 * The types written in a script ({@code (x : int)}, {@code let json.parse (x : {a : string}) = s})
 * as the checker's types, with Liquidsoap's names and its message for a name it does not know
 * ({@code Unknown type constructor: foo.}).
 */
final class Annotations {
    private Annotations() {}

    /** The runtime's opaque types a script may name. */
    private static final Set<String> OPAQUE =
            Set.of(
                    "activation",
                    "clock",
                    "clock_source",
                    "encoder",
                    "error",
                    "http_transport",
                    "internet_address",
                    "regexp",
                    "request",
                    "socket",
                    "socket_address",
                    "socket_domain",
                    "socket_type",
                    "sqlite.row",
                    "srt_socket",
                    "track",
                    "type");

    static Type of(TypeAnnotation a) {
        return switch (a) {
            case TypeAnnotation.Named n -> named(n);
            case TypeAnnotation.Nullable n -> Type.nullable(of(n.of()));
            case TypeAnnotation.ListOf l -> new Type.ListType(of(l.of()), false);
            case TypeAnnotation.JsonObject j ->
                    new Type.ListType(new Type.TupleType(List.of(Type.STRING, of(j.of()))), true);
            case TypeAnnotation.Tuple t -> {
                List<Type> elements = new ArrayList<>();
                for (TypeAnnotation e : t.elements()) elements.add(of(e));
                yield new Type.TupleType(elements);
            }
            case TypeAnnotation.Arrow f -> {
                List<Type.Arg> args = new ArrayList<>();
                for (TypeAnnotation.ArrowArg arg : f.args()) {
                    args.add(new Type.Arg(arg.optional(), arg.label(), of(arg.type())));
                }
                yield new Type.Arrow(args, of(f.result()));
            }
            case TypeAnnotation.RecordType r -> methods(Type.UNIT, r.methods());
            case TypeAnnotation.WithMethods w -> methods(of(w.base()), w.methods());
            case TypeAnnotation.Invoke i -> invoke(i);
            case TypeAnnotation.Source s -> source(s);
        };
    }

    private static Type methods(Type base, List<TypeAnnotation.Method> methods) {
        Type t = base;
        for (TypeAnnotation.Method m : methods) {
            t =
                    new Type.Meth(
                            m.name(),
                            m.optional(),
                            Type.Scheme.mono(of(m.type())),
                            m.jsonName(),
                            t);
        }
        return t;
    }

    private static Type named(TypeAnnotation.Named n) {
        return switch (n.name()) {
            case "_" -> new TypeVar(TypeVar.ANY_LEVEL);
            case "unit" -> Type.UNIT;
            case "never" -> Type.NEVER;
            case "bool" -> Type.BOOL;
            case "int" -> Type.INT;
            case "float" -> Type.FLOAT;
            case "string" -> Type.STRING;
            case "ref" -> Type.reference(new TypeVar(TypeVar.ANY_LEVEL));
            case "source" -> Tracks.source(new TypeVar(TypeVar.ANY_LEVEL));
            // the methods of a source, which the engine defines: here, anything
            case "source_methods" -> new TypeVar(TypeVar.ANY_LEVEL);
            default -> {
                String kind = Tracks.KINDS.contains(n.name()) ? n.name() : null;
                if (kind != null) yield Tracks.kind(kind, TypeVar.ANY_LEVEL);
                if (OPAQUE.contains(n.name())) yield new Type.Ground(n.name());
                throw unknown(n, n.name());
            }
        };
    }

    /** {@code ffmpeg.copy}, {@code {a : int}.a}. */
    private static Type invoke(TypeAnnotation.Invoke i) {
        String path = path(i);
        if (path != null && Tracks.KINDS.contains(path))
            return Tracks.kind(path, TypeVar.ANY_LEVEL);
        if (path != null && OPAQUE.contains(path)) return new Type.Ground(path);
        Type base = of(i.base());
        Type.Meth m = Methods.find(base, i.name());
        if (m == null) throw unknown(i, path == null ? i.name() : path);
        return m.scheme().type();
    }

    private static String path(TypeAnnotation a) {
        return switch (a) {
            case TypeAnnotation.Named n -> n.name();
            case TypeAnnotation.Invoke i -> {
                String base = path(i.base());
                yield base == null ? null : base + "." + i.name();
            }
            default -> null;
        };
    }

    private static TypeError unknown(TypeAnnotation at, String name) {
        return new TypeError(at.span(), "Unknown type constructor: " + name + ".");
    }

    private static Type source(TypeAnnotation.Source s) {
        if (!s.name().equals("source")) throw unknown(s, s.name());
        if (s.tracks().isEmpty()) return Tracks.source(new TypeVar(TypeVar.ANY_LEVEL));
        Map<String, Type> tracks = new LinkedHashMap<>();
        for (TypeAnnotation.Track t : s.tracks()) tracks.put(t.name(), content(t));
        Type base = s.extensible() ? new TypeVar(TypeVar.ANY_LEVEL) : Type.UNIT;
        return Tracks.source(Tracks.record(tracks, base));
    }

    private static Type content(TypeAnnotation.Track t) {
        switch (t.content()) {
            case "any" -> {
                return new TypeVar(TypeVar.ANY_LEVEL);
            }
            case "none", "never" -> {
                return Type.NEVER;
            }
            default -> {}
        }
        String kind = Tracks.kind(t.content());
        if (kind != null && t.params().isEmpty()) return Tracks.kind(kind, TypeVar.ANY_LEVEL);
        if (kind != null && t.params().size() == 1 && t.params().getFirst().label().isEmpty()) {
            String only = t.params().getFirst().value();
            if (only.equals("any")) return new TypeVar(TypeVar.ANY_LEVEL);
            if (only.equals("internal")) {
                return new TypeVar(TypeVar.ANY_LEVEL, List.of(Constraint.INTERNAL_TRACK));
            }
        }
        if (kind != null) {
            List<String[]> written = new ArrayList<>();
            for (TypeAnnotation.ContentParam p : t.params()) {
                written.add(new String[] {p.label(), p.value()});
            }
            Map<String, String> params = Tracks.params(kind, written);
            if (params != null) return Tracks.format(kind, params);
        }
        StringBuilder b = new StringBuilder(t.content()).append('(');
        for (int i = 0; i < t.params().size(); i++) {
            TypeAnnotation.ContentParam p = t.params().get(i);
            if (i > 0) b.append(',');
            b.append(p.label().isEmpty() ? "" : p.label() + "=").append(p.value());
        }
        throw new TypeError(t.span(), "Unknown type constructor: " + b.append(')') + ".");
    }
}
