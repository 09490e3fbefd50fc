package org.groovecast.host.script;

import java.util.List;
import java.util.Set;
import org.codehaus.groovy.ast.ClassHelper;
import org.codehaus.groovy.ast.ClassNode;
import org.codehaus.groovy.ast.MethodNode;
import org.codehaus.groovy.ast.Parameter;
import org.codehaus.groovy.ast.expr.ArgumentListExpression;
import org.codehaus.groovy.ast.expr.BinaryExpression;
import org.codehaus.groovy.ast.expr.CastExpression;
import org.codehaus.groovy.ast.expr.ClassExpression;
import org.codehaus.groovy.ast.expr.Expression;
import org.codehaus.groovy.ast.expr.MethodCallExpression;
import org.codehaus.groovy.ast.expr.TupleExpression;
import org.codehaus.groovy.syntax.Types;
import org.codehaus.groovy.transform.stc.AbstractTypeCheckingExtension;
import org.codehaus.groovy.transform.stc.ExtensionMethodNode;

/**
 * Operators on values whose type the script does not say ({@code def m = json.parse(t);
 * m.items[0]}, {@code a + b}, {@code a <=> b} with an untyped closure parameter): the static
 * checker finds no method for them, and Groovy's static compiler then failed with an internal error
 * ("BUG! ... getAt ... This method should not have been called"). Here they become calls resolved
 * at run time, as dynamic Groovy resolves them: an index through {@link IndexedValue}, the others
 * through {@link DynamicOperators}.
 */
final class UnknownTypeOperators {
    private static final Set<String> BINARY =
            Set.of(
                    "getAt",
                    "plus",
                    "minus",
                    "multiply",
                    "div",
                    "intdiv",
                    "mod",
                    "remainder",
                    "power",
                    "leftShift",
                    "rightShift",
                    "rightShiftUnsigned",
                    "compareTo",
                    "isCase",
                    "and",
                    "or",
                    "xor");

    private static final ClassNode DYNAMIC_OPERATORS = ClassHelper.make(DynamicOperators.class);
    private static final ClassNode INDEXED_VALUE = ClassHelper.make(IndexedValue.class);

    private UnknownTypeOperators() {}

    /**
     * The method for the checker's synthetic call {@code call}, which stands for the binary
     * operator being checked; null when {@code call} is not one or both operand types are known.
     */
    static List<MethodNode> resolve(
            AbstractTypeCheckingExtension checker,
            ClassNode receiver,
            String name,
            MethodCallExpression call) {
        if (!BINARY.contains(name)) return null;
        BinaryExpression operator = checker.getEnclosingBinaryExpression();
        if (operator == null
                || operator.getLeftExpression() != call.getObjectExpression()
                || !(call.getArguments() instanceof TupleExpression args)
                || args.getExpressions().size() != 1
                || args.getExpression(0) != operator.getRightExpression()) {
            return null; // a call the script wrote, not an operator
        }
        ClassNode other = checker.getType(operator.getRightExpression());
        if (!OperatorChecker.isUnknown(receiver) && !OperatorChecker.isUnknown(other)) return null;
        if (name.equals("getAt")) return indexed(checker, operator, receiver);
        if (operator.getOperation().getType() == Types.COMPARE_TO
                && ClassHelper.isPrimitiveType(other)) {
            // Groovy's compiler takes "x <=> 1" for a comparison of two primitives; boxed, the
            // number is an Object like x.
            CastExpression boxed =
                    new CastExpression(ClassHelper.OBJECT_TYPE, operator.getRightExpression());
            boxed.setSourcePosition(operator.getRightExpression());
            checker.storeType(boxed, ClassHelper.OBJECT_TYPE);
            operator.setRightExpression(boxed);
        }
        MethodNode m = DYNAMIC_OPERATORS.getDeclaredMethods(name).getFirst();
        Parameter[] all = m.getParameters();
        ExtensionMethodNode node =
                new ExtensionMethodNode(
                        m,
                        name,
                        m.getModifiers(),
                        m.getReturnType(),
                        new Parameter[] {all[1]},
                        ClassNode.EMPTY_ARRAY,
                        null);
        node.setDeclaringClass(receiver);
        return List.of(node);
    }

    /**
     * {@code x[i]}: Groovy compiles an index from the type of what is indexed, so {@code x} becomes
     * {@code IndexedValue.of(x)}, whose getAt and putAt resolve at run time; {@code x?[i]} gets
     * {@code ofNullable}, null for a null {@code x}. An index with a known receiver and an unknown
     * subscript ({@code list[i]} for a {@code def i}) is wrapped the same way.
     */
    private static List<MethodNode> indexed(
            AbstractTypeCheckingExtension checker, BinaryExpression index, ClassNode receiver) {
        if (index.getOperation().getType() != Types.LEFT_SQUARE_BRACKET) return null;
        MethodCallExpression wrap = wrapIndexed(checker, index);
        List<BinaryExpression> enclosing = checker.getEnclosingBinaryExpressionStack();
        if (enclosing.size() > 1
                && enclosing.get(1).getLeftExpression() == index
                && Types.isAssignment(enclosing.get(1).getOperation().getType())) {
            // x[i] = v: the checker looks for putAt on the type x had before it was wrapped, for
            // the index it sees on the left of the assignment; the assignment gets an equal index
            // instead, which compiles to the wrapper's putAt.
            BinaryExpression copy =
                    new BinaryExpression(
                            wrap, index.getOperation(), index.getRightExpression(), index.isSafe());
            copy.setSourcePosition(index);
            copy.copyNodeMetaData(index);
            enclosing.get(1).setLeftExpression(copy);
        }
        return INDEXED_VALUE.getDeclaredMethods("getAt");
    }

    /**
     * Puts what {@code index} indexes in an {@link IndexedValue} ({@code x[i]} becomes {@code
     * IndexedValue.of(x)[i]}, {@code ofNullable} for {@code x?[i]}); returns the wrapping call.
     */
    static MethodCallExpression wrapIndexed(
            AbstractTypeCheckingExtension checker, BinaryExpression index) {
        Expression operand = index.getLeftExpression();
        MethodNode factory =
                INDEXED_VALUE.getDeclaredMethods(index.isSafe() ? "ofNullable" : "of").getFirst();
        MethodCallExpression wrap =
                new MethodCallExpression(
                        new ClassExpression(INDEXED_VALUE),
                        factory.getName(),
                        new ArgumentListExpression(operand));
        wrap.setImplicitThis(false);
        wrap.setMethodTarget(factory);
        wrap.setSourcePosition(operand);
        checker.storeType(wrap, INDEXED_VALUE);
        index.setLeftExpression(wrap);
        return wrap;
    }

    /** The getAt of {@link IndexedValue}, which an index of a wrapped value calls. */
    static MethodNode indexedGetAt() {
        return INDEXED_VALUE.getDeclaredMethods("getAt").getFirst();
    }
}
