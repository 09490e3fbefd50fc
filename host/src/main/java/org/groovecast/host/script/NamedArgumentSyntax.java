package org.groovecast.host.script;

import java.util.List;
import org.codehaus.groovy.ast.ASTNode;
import org.codehaus.groovy.ast.expr.ArgumentListExpression;
import org.codehaus.groovy.ast.expr.Expression;
import org.codehaus.groovy.ast.expr.MapEntryExpression;
import org.codehaus.groovy.ast.expr.MapExpression;
import org.codehaus.groovy.ast.expr.NamedArgumentListExpression;

/**
 * Which map of a call is its named arguments: only one written as such, {@code f(a: 1, x)}. Groovy
 * passes named arguments as a leading map, so at run time {@code json.stringify(compact: true)} and
 * {@code json.stringify(m)} with {@code m = [compact: true]} look alike; the call site tells them
 * apart, and the compiler marks what it finds for run time: a call whose first argument is a value
 * that may be a map, and not named arguments, gets an empty map of named arguments before it
 * ({@link #markPositional}), which is what binding it reads.
 */
final class NamedArgumentSyntax {
    private NamedArgumentSyntax() {}

    /**
     * Whether {@code first}, the first of {@code args}, is named arguments rather than a map value
     * ({@code [a: 1]}, {@code [:]}, a map variable). Groovy's parser gives both a map expression; a
     * literal's position takes in its brackets, so it starts before its first entry and ends after
     * its last, where named arguments start at their first name or, mixed with positional
     * arguments, span them too.
     */
    static boolean isNamed(Expression first, List<Expression> args) {
        if (!(first instanceof MapExpression map)) return false;
        if (map instanceof NamedArgumentListExpression) return true;
        List<MapEntryExpression> entries = map.getMapEntryExpressions();
        if (entries.isEmpty()) return false; // [:]: named arguments are never empty
        if (map.getLineNumber() < 0) return true; // made by a transformation: as Groovy passes it
        boolean bracketed = before(map, entries.getFirst()) && after(map, entries.getLast());
        if (!bracketed) return true;
        for (Expression other : args) {
            if (other != map && within(other, map)) return true; // f(x, a: 1, y) spans x and y
        }
        return false;
    }

    /**
     * Marks, for run time, that the first of {@code args} is a value: an empty map of named
     * arguments goes before it.
     */
    static void markPositional(ArgumentListExpression args) {
        MapExpression none = new MapExpression();
        none.setSourcePosition(args.getExpressions().getFirst());
        args.getExpressions().addFirst(none);
    }

    private static boolean before(ASTNode a, ASTNode b) {
        return a.getLineNumber() < b.getLineNumber()
                || a.getLineNumber() == b.getLineNumber()
                        && a.getColumnNumber() < b.getColumnNumber();
    }

    private static boolean after(ASTNode a, ASTNode b) {
        return a.getLastLineNumber() > b.getLastLineNumber()
                || a.getLastLineNumber() == b.getLastLineNumber()
                        && a.getLastColumnNumber() > b.getLastColumnNumber();
    }

    private static boolean within(ASTNode inner, ASTNode outer) {
        return inner.getLineNumber() > 0 && !before(inner, outer) && !after(inner, outer);
    }
}
