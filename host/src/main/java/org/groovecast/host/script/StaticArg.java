package org.groovecast.host.script;

import groovy.lang.Closure;
import groovy.lang.GString;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.codehaus.groovy.ast.ClassHelper;
import org.codehaus.groovy.ast.ClassNode;
import org.codehaus.groovy.ast.Parameter;
import org.codehaus.groovy.ast.expr.ClosureExpression;
import org.codehaus.groovy.ast.expr.ConstantExpression;
import org.codehaus.groovy.ast.expr.Expression;
import org.codehaus.groovy.ast.expr.ListExpression;
import org.codehaus.groovy.ast.expr.MapEntryExpression;
import org.codehaus.groovy.ast.expr.MapExpression;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Condition;
import org.groovecast.api.Encoder;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.api.ValueType;

/** An argument at compile time: its expression and the type the checker inferred for it. */
final class StaticArg implements Arg {
    private final Expression expression;
    private final ClassNode type;
    private final Function<Expression, ClassNode> typeOf;

    /** A map literal given as a value ({@code f([a: 1])}), not as named arguments. */
    private final boolean value;

    StaticArg(Expression expression, ClassNode type, Function<Expression, ClassNode> typeOf) {
        this(expression, type, typeOf, false);
    }

    private StaticArg(
            Expression expression,
            ClassNode type,
            Function<Expression, ClassNode> typeOf,
            boolean value) {
        this.expression = expression;
        this.type = type == null ? ClassHelper.OBJECT_TYPE : type;
        this.typeOf = typeOf;
        this.value = value;
    }

    static StaticArg of(Expression e, Function<Expression, ClassNode> typeOf) {
        return new StaticArg(e, typeOf.apply(e), typeOf);
    }

    /**
     * {@code e} as a value, even a map literal, never named arguments: see {@link
     * NamedArgumentSyntax}.
     */
    static StaticArg value(Expression e, Function<Expression, ClassNode> typeOf) {
        return new StaticArg(e, typeOf.apply(e), typeOf, true);
    }

    @Override
    public boolean isFunction() {
        return expression instanceof ClosureExpression
                || is(Closure.class)
                || is(UserFunction.class);
    }

    @Override
    public Boolean fits(ValueType t) {
        if (t == ValueType.ANY) return true;
        if (isDynamic()) return null;
        ClassNode boxed = ClassHelper.getWrapper(type);
        return switch (t) {
            case SOURCE, OUTPUT -> is(Source.class);
            case SOURCES -> is(Source.class) || isListLike() ? true : false;
            case ENCODER -> is(Encoder.class);
            case CLOCK -> is(ClockInfo.class);
            case NUMBER ->
                    boxed.isDerivedFrom(ClassHelper.Number_TYPE)
                            || boxed.equals(ClassHelper.Number_TYPE);
            case INTEGER -> isInteger(boxed);
            case STRING -> is(String.class) || is(GString.class) || is(CharSequence.class);
            case BOOLEAN -> boxed.equals(ClassHelper.Boolean_TYPE);
            case LIST -> isListLike();
            case MAP -> is(Map.class);
            case CONDITION -> is(Condition.class);
            case FUNCTION -> isFunction();
            case NONE -> false;
            case ANY -> true;
        };
    }

    private boolean isInteger(ClassNode boxed) {
        if (expression instanceof ConstantExpression c && c.getValue() instanceof Number n) {
            return n.doubleValue() == Math.rint(n.doubleValue());
        }
        return boxed.equals(ClassHelper.Integer_TYPE)
                || boxed.equals(ClassHelper.Long_TYPE)
                || boxed.equals(ClassHelper.Short_TYPE)
                || boxed.equals(ClassHelper.Byte_TYPE)
                || boxed.equals(ClassHelper.BigInteger_TYPE);
    }

    private boolean isDynamic() {
        return type.equals(ClassHelper.OBJECT_TYPE) || type.isGenericsPlaceHolder();
    }

    private boolean isListLike() {
        return expression instanceof ListExpression || type.isArray() || is(List.class);
    }

    private boolean is(Class<?> c) {
        ClassNode target = ClassHelper.make(c);
        return type.equals(target)
                || type.isDerivedFrom(target)
                || type.implementsInterface(target)
                || c.isInterface() && type.isInterface() && type.declaresInterface(target);
    }

    @Override
    public String describe() {
        if (expression instanceof ConstantExpression c && c.getValue() != null) {
            return Values.describe(c.getValue());
        }
        if (expression instanceof ClosureExpression) return "a function";
        return type.getNameWithoutPackage();
    }

    @Override
    public List<StaticArg> elements() {
        if (expression instanceof ListExpression l) {
            return l.getExpressions().stream().map(e -> StaticArg.of(e, typeOf)).toList();
        }
        return null;
    }

    @Override
    public Double number() {
        return expression instanceof ConstantExpression c && c.getValue() instanceof Number n
                ? n.doubleValue()
                : null;
    }

    @Override
    public Object known() {
        return known(expression);
    }

    private static Object known(Expression e) {
        if (e instanceof ConstantExpression c) return c.getValue();
        if (e instanceof ListExpression l) {
            List<Object> out = new ArrayList<>();
            for (Expression x : l.getExpressions()) {
                Object v = known(x);
                if (v == null) return null; // one element run time computes: all checked then
                out.add(v);
            }
            return out;
        }
        if (e instanceof MapExpression m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (MapEntryExpression x : m.getMapEntryExpressions()) {
                if (!(x.getKeyExpression() instanceof ConstantExpression k)
                        || !(k.getValue() instanceof String key)) return null;
                Object v = known(x.getValueExpression());
                if (v != null) out.put(key, v);
            }
            return out;
        }
        return null;
    }

    /**
     * A closure literal's parameters: {@code { -> }} none, {@code { it }} and {@code { a -> }} none
     * or one, {@code { a, b = 1 -> }} one or two, varargs any number from the others.
     */
    @Override
    public int[] takes() {
        if (!(expression instanceof ClosureExpression c)) return null;
        Parameter[] params = c.getParameters();
        if (params == null) return new int[] {0, 0}; // { -> }
        if (params.length == 0) return new int[] {0, 1}; // { it }
        int min = 0;
        for (Parameter p : params) if (!p.hasInitialExpression()) min++;
        // Groovy calls a closure of one parameter without arguments with null for it.
        if (params.length == 1 && !ClassHelper.isPrimitiveType(params[0].getType())) min = 0;
        if (params.length > 0 && params[params.length - 1].getType().isArray())
            return new int[] {min - 1, Integer.MAX_VALUE};
        return new int[] {min, params.length};
    }

    @Override
    public Map<String, StaticArg> entries() {
        if (value || !(expression instanceof MapExpression m)) return null;
        Map<String, StaticArg> out = new LinkedHashMap<>();
        for (MapEntryExpression e : m.getMapEntryExpressions()) {
            if (!(e.getKeyExpression() instanceof ConstantExpression k)
                    || !(k.getValue() instanceof String key)) return null;
            out.put(key, StaticArg.of(e.getValueExpression(), typeOf));
        }
        return out;
    }
}
