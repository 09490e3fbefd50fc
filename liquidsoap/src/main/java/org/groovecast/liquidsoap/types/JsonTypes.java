package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;

/**
 * The type inferred for an untyped {@code let json.parse x = s}, written as the annotation the
 * evaluation decodes the JSON with: Liquidsoap reads the JSON as the type the rest of the script
 * gives {@code x} ({@code x.foo + 1.} makes {@code foo} a float). What the script leaves unknown is
 * {@code _}, read as nothing, as Liquidsoap's decoder leaves it.
 */
final class JsonTypes {
    private JsonTypes() {}

    static TypeAnnotation annotation(Type t, Span at) {
        return annotation(t, at, 0);
    }

    private static TypeAnnotation annotation(Type t, Span at, int depth) {
        if (depth > Limits.DEPTH) return new TypeAnnotation.Named(at, "_");
        t = Type.deref(t);
        return switch (t) {
            case Type.Ground g -> new TypeAnnotation.Named(at, g.name());
            case Type.Nullable n ->
                    new TypeAnnotation.Nullable(at, annotation(n.of(), at, depth + 1));
            case Type.ListType l
                    when l.jsonObject()
                            && Type.deref(l.element()) instanceof Type.TupleType pair
                            && pair.elements().size() == 2 ->
                    new TypeAnnotation.JsonObject(
                            at, annotation(pair.elements().get(1), at, depth + 1));
            case Type.ListType l ->
                    new TypeAnnotation.ListOf(at, annotation(l.element(), at, depth + 1));
            case Type.TupleType tu when tu.elements().isEmpty() ->
                    new TypeAnnotation.Named(at, "unit");
            case Type.TupleType tu -> {
                List<TypeAnnotation> elements = new ArrayList<>();
                for (Type e : tu.elements()) elements.add(annotation(e, at, depth + 1));
                yield new TypeAnnotation.Tuple(at, elements);
            }
            case Type.Meth m -> {
                Methods.Split split = Methods.split(m);
                List<TypeAnnotation.Method> fields = new ArrayList<>();
                for (Type.Meth f : split.methods().reversed()) {
                    fields.add(
                            new TypeAnnotation.Method(
                                    at,
                                    f.name(),
                                    f.optional(),
                                    annotation(f.scheme().type(), at, depth + 1),
                                    f.jsonName()));
                }
                Type base = Type.deref(split.base());
                yield base instanceof TypeVar || base.equals(Type.UNIT)
                        ? new TypeAnnotation.RecordType(at, fields)
                        : new TypeAnnotation.WithMethods(
                                at, annotation(base, at, depth + 1), fields);
            }
            default -> new TypeAnnotation.Named(at, "_");
        };
    }
}
