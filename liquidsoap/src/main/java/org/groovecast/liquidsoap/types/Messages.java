package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * The messages of type errors, in Liquidsoap's words (its repr.ml and runtime.ml) on one line, and
 * the suggestion of a near name where Liquidsoap gives none.
 */
final class Messages {
    private Messages() {}

    /** How long a type may be in a message before it is cut (a module's type is pages long). */
    private static final int LONGEST_TYPE = 300;

    static String mismatch(Mismatch m, Type left, boolean flipped) {
        if (!flipped
                && m.right() instanceof Repr.Meth meth
                && meth.type() instanceof Repr.Ellipsis
                && meth.base() instanceof Repr.Ellipsis
                && meth.generalized().isEmpty()) {
            return noMethod(meth.name(), left);
        }
        Repr a = flipped ? m.right() : m.left();
        Repr b = flipped ? m.left() : m.right();
        return "this value has type "
                + cut(TypePrinter.print(a))
                + " but it should be a "
                + (flipped ? "super" : "sub")
                + "type of "
                + cut(TypePrinter.print(b));
    }

    static String noMethod(String name, Type type) {
        String suggestion = "";
        Methods.Split split = Methods.split(type);
        List<String> names = new ArrayList<>();
        for (Type.Meth m : split.methods()) names.add(m.name());
        String near = Suggestions.nearest(name, names);
        if (near != null) suggestion = " (did you mean `" + near + "`?)";
        return "this value has no method `"
                + name
                + "`"
                + suggestion
                + ". Its type is "
                + cut(TypePrinter.print(type))
                + ".";
    }

    static String cut(String type) {
        if (type.length() <= LONGEST_TYPE) return type;
        return type.substring(0, LONGEST_TYPE) + "...";
    }

    static TypeError tooComplex(Span at) {
        return new TypeError(
                at,
                "this expression's type grows too large to be checked (over the checker's bounds)");
    }
}
