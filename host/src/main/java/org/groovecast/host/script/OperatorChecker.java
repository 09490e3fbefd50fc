package org.groovecast.host.script;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.codehaus.groovy.ast.ASTNode;
import org.codehaus.groovy.ast.ClassHelper;
import org.codehaus.groovy.ast.ClassNode;
import org.codehaus.groovy.ast.CodeVisitorSupport;
import org.codehaus.groovy.ast.MethodNode;
import org.codehaus.groovy.ast.expr.ArgumentListExpression;
import org.codehaus.groovy.ast.expr.BinaryExpression;
import org.codehaus.groovy.ast.expr.ClosureExpression;
import org.codehaus.groovy.ast.expr.Expression;
import org.codehaus.groovy.ast.expr.MethodCall;
import org.codehaus.groovy.ast.expr.MethodCallExpression;
import org.codehaus.groovy.ast.expr.PropertyExpression;
import org.codehaus.groovy.ast.expr.VariableExpression;
import org.codehaus.groovy.syntax.Types;
import org.codehaus.groovy.transform.stc.AbstractTypeCheckingExtension;
import org.codehaus.groovy.transform.stc.ExtensionMethodNode;
import org.codehaus.groovy.transform.stc.StaticTypeCheckingVisitor;
import org.codehaus.groovy.transform.stc.StaticTypesMarker;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Condition;
import org.groovecast.api.Encoder;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.ValueType;

/**
 * Teaches Groovy's static type checker the names that plugins provide. Station scripts compile with
 * {@code @CompileStatic}; calls to operators, namespaces ({@code output.file}) and settings are
 * checked here against their {@link OperatorSpec}s, so a wrong argument is reported with its line
 * before anything starts, and then compiled as dynamic calls on engine-owned objects only. Nothing
 * in a compiled script refers to a plugin class, so unloading a plugin leaves no reference behind
 * in scripts.
 */
public final class OperatorChecker extends AbstractTypeCheckingExtension {
    /** The names the script being compiled may use; bound by {@link ScriptCompiler}. */
    static final ScopedValue<ScriptFunctions> FUNCTIONS = ScopedValue.newInstance();

    /**
     * The settings the script being compiled may use; bound by {@link ScriptCompiler} beside the
     * names.
     */
    static final ScopedValue<ScriptSettings> STATION_SETTINGS = ScopedValue.newInstance();

    private static final ClassNode SOURCE = ClassHelper.make(Source.class);
    private static final ClassNode NAMESPACE = ClassHelper.make(Namespace.class);
    private static final ClassNode SETTINGS = ClassHelper.make(SettingsNode.class);

    /** Methods whose result type is the same on every value Groovy gives them to. */
    private static final Map<String, ClassNode> KNOWN_RESULTS =
            Map.of(
                    "size", ClassHelper.Integer_TYPE,
                    "length", ClassHelper.Integer_TYPE,
                    "isEmpty", ClassHelper.Boolean_TYPE,
                    "toString", ClassHelper.STRING_TYPE);

    private final ScriptFunctions functions;
    private final ScriptSettings settings;

    public OperatorChecker(StaticTypeCheckingVisitor visitor) {
        super(visitor);
        this.functions = FUNCTIONS.isBound() ? FUNCTIONS.get() : new ScriptFunctions();
        this.settings =
                STATION_SETTINGS.get(); // no checking without them: every compile binds them
    }

    /**
     * Whether the code being checked belongs to the script (its body, functions and closures), as
     * opposed to a class the script declares: only the script has a station to call operators on.
     */
    private boolean inScript() {
        ClassNode c = getEnclosingClassNode();
        while (c != null && c.getOuterClass() != null && !c.isScript()) c = c.getOuterClass();
        return c == null || c.isScript();
    }

    /** Refuses a station name used in a class the script declares; true when it did. */
    private boolean outsideScript(String name, ASTNode at) {
        if (inScript()) return false;
        addStaticTypeError(
                name
                        + " is the script's: a class declared in the script cannot use the station's"
                        + " operators, settings or log; call them in the script or its functions and"
                        + " pass the class what it needs",
                at);
        return true;
    }

    /**
     * A call or property resolved at run time needs a method to mark: in a field's initial value of
     * a class the script declares there is none (Groovy's checker then failed with a
     * NullPointerException), so it is refused there.
     */
    private boolean noEnclosingCode(ASTNode at) {
        if (getEnclosingMethod() != null || getEnclosingClosure() != null) return false;
        addStaticTypeError(
                "a field's initial value in a class is checked without the script: give the field"
                        + " its value in a method or a constructor",
                at);
        return true;
    }

    @Override
    public MethodNode makeDynamic(MethodCall call, ClassNode returnType) {
        if (noEnclosingCode((ASTNode) call)) {
            return newMethod(call.getMethodAsString(), returnType);
        }
        return super.makeDynamic(call, returnType);
    }

    @Override
    public void makeDynamic(PropertyExpression pexp, ClassNode returnType) {
        if (noEnclosingCode(pexp)) {
            storeType(pexp, returnType);
            return;
        }
        super.makeDynamic(pexp, returnType);
    }

    @Override
    public void makeDynamic(VariableExpression vexp, ClassNode returnType) {
        if (noEnclosingCode(vexp)) {
            storeType(vexp, returnType);
            return;
        }
        super.makeDynamic(vexp, returnType);
    }

    @Override
    public boolean handleUnresolvedVariableExpression(VariableExpression v) {
        String name = v.getName();
        if ((name.equals("settings")
                        || functions.isNamespace(name)
                        || functions.find(name).isPresent())
                && outsideScript(name, v)) {
            storeType(v, ClassHelper.OBJECT_TYPE);
            return true;
        }
        if (name.equals("settings")) {
            makeDynamic(v, SETTINGS);
            return true;
        }
        if (functions.isNamespace(name)) {
            makeDynamic(v, NAMESPACE);
            return true;
        }
        if (functions.find(name).isPresent()) {
            addStaticTypeError(name + " is an operator: call it as " + name + "(...)", v);
            makeDynamic(v);
            return true;
        }
        return false;
    }

    @Override
    public boolean handleUnresolvedProperty(PropertyExpression pe) {
        ClassNode receiver = getType(pe.getObjectExpression());
        String prop = pe.getPropertyAsString();
        if (prop == null) return false;
        if (receiver.equals(NAMESPACE)) {
            String path = dotted(pe.getObjectExpression()) + "." + prop;
            if (functions.isNamespace(path)) {
                makeDynamic(pe, NAMESPACE);
            } else {
                addStaticTypeError(
                        functions.find(path).isPresent()
                                ? path + " is an operator: call it as " + path + "(...)"
                                : "unknown name " + path + hint(path),
                        pe);
                makeDynamic(pe);
            }
            return true;
        }
        if (receiver.equals(SETTINGS)) {
            String path = settingsPath(pe.getObjectExpression()) + prop;
            Optional<ValueType> type = settings.type(path);
            if (type.isPresent() && settings.isPrefix(path)) {
                // harbor.accessLog is a setting and the prefix of harbor.accessLog.hashAddresses:
                // a node (its value checked where it is set, at run time).
                makeDynamic(pe, SETTINGS);
            } else if (type.isPresent()) {
                makeDynamic(pe, settingType(type.get()));
            } else if (settings.isPrefix(path)) {
                makeDynamic(pe, SETTINGS);
            } else {
                addStaticTypeError("unknown setting settings." + path, pe);
                makeDynamic(pe);
            }
            return true;
        }
        if (receiver.equals(ClassHelper.OBJECT_TYPE)) {
            // A value of unknown type (an untyped closure parameter): resolve at run time.
            makeDynamic(pe);
            return true;
        }
        if ((receiver.equals(SOURCE) || receiver.isDerivedFrom(SOURCE))
                && functions.isDeclaredMethod(prop)) {
            // lufs(s).momentary, normalize(s).gain: what an operator declares its source to have.
            makeDynamic(pe);
            return true;
        }
        return false;
    }

    /**
     * A Groovy method taking a closure ({@code each}, {@code collect}, {@code find}...) called on a
     * value of unknown type is chosen by its run-time type, as dynamic Groovy chooses it: the
     * checker would hold the closure to {@code Object}'s form ({@code each} with one parameter),
     * where {@code json.parse(t).each { k, v -> }} walks a map with two.
     */
    @Override
    public void onMethodSelection(Expression expression, MethodNode target) {
        if (!(expression instanceof MethodCallExpression call)
                || !(target instanceof ExtensionMethodNode)
                || call.isImplicitThis()
                || !isUnknown(getType(call.getObjectExpression()))
                || !(call.getArguments() instanceof ArgumentListExpression args)
                || args.getExpressions().stream().noneMatch(a -> a instanceof ClosureExpression)) {
            return;
        }
        // Another target than the one chosen tells the checker to leave the call as it is.
        call.putNodeMetaData(
                StaticTypesMarker.DIRECT_METHOD_CALL_TARGET,
                makeDynamic(call, ClassHelper.OBJECT_TYPE));
        storeType(call, ClassHelper.OBJECT_TYPE);
    }

    /**
     * {@code x['key']} on a string, a number or a boolean: Groovy reads it as the property named
     * {@code key} of that value, compiled as a direct call whose failure (the usual case: such
     * values have no such property) carries no stack trace, so no line; the checker selects no
     * method for it that this extension could see. A script that indexes one of these by a name
     * means a map: refused here, at its line, once the method's types are known.
     */
    @Override
    public void afterVisitMethod(MethodNode node) {
        if (node.getCode() == null) return;
        Set<Expression> assigned = Collections.newSetFromMap(new IdentityHashMap<>());
        node.getCode()
                .visit(
                        new CodeVisitorSupport() {
                            @Override
                            public void visitBinaryExpression(BinaryExpression b) {
                                if (Types.isAssignment(b.getOperation().getType()))
                                    assigned.add(b.getLeftExpression());
                                super.visitBinaryExpression(b);
                                if (b.getOperation().getType() != Types.LEFT_SQUARE_BRACKET) return;
                                refusePropertyIndex(b);
                                if (!assigned.contains(b)) readByNameAtRunTime(b);
                            }
                        });
    }

    /**
     * {@code v['key']} on a value of unknown type is Groovy's read of a property by name, compiled
     * as a direct call of its library whose failure (no such property: v was a string) carries no
     * stack trace; read through {@link IndexedValue} instead, the failure names the script's line.
     */
    private void readByNameAtRunTime(BinaryExpression index) {
        if (!isUnknown(getType(index.getLeftExpression()))) return;
        ClassNode key = getType(index.getRightExpression());
        if (!key.equals(ClassHelper.STRING_TYPE) && !key.equals(ClassHelper.GSTRING_TYPE)) return;
        UnknownTypeOperators.wrapIndexed(this, index);
        index.putNodeMetaData(
                StaticTypesMarker.DIRECT_METHOD_CALL_TARGET, UnknownTypeOperators.indexedGetAt());
    }

    private void refusePropertyIndex(BinaryExpression index) {
        ClassNode key = getType(index.getRightExpression());
        if (!key.equals(ClassHelper.STRING_TYPE) && !key.equals(ClassHelper.GSTRING_TYPE)) return;
        ClassNode receiver = ClassHelper.getWrapper(getType(index.getLeftExpression()));
        boolean scalar =
                receiver.equals(ClassHelper.STRING_TYPE)
                        || receiver.equals(ClassHelper.GSTRING_TYPE)
                        || receiver.equals(ClassHelper.Boolean_TYPE)
                        || receiver.equals(ClassHelper.Character_TYPE)
                        || receiver.isDerivedFrom(ClassHelper.Number_TYPE)
                        || receiver.equals(ClassHelper.Number_TYPE);
        if (!scalar) return;
        addStaticTypeError(
                "x['...'] reads a property by name, and a "
                        + receiver.getNameWithoutPackage()
                        + " is no map: index a map (Map m = json.parse(...); m['key']) or a list by"
                        + " number (xs[0])",
                index);
    }

    @Override
    public boolean handleIncompatibleAssignment(
            ClassNode lhsType, ClassNode rhsType, Expression assignment) {
        if (isUnknown(rhsType) && !isUnknown(lhsType)) {
            // int n = json.parse(t).count: a declared type takes a value of unknown type as
            // dynamic Groovy does, converted when assigned (a failure is located then).
            return true;
        }
        if (!(assignment instanceof BinaryExpression b)
                || !(b.getLeftExpression() instanceof PropertyExpression pe)) return false;
        if (!getType(pe.getObjectExpression()).equals(SETTINGS)) return false;
        String key = settingsPath(pe.getObjectExpression()) + pe.getPropertyAsString();
        Optional<ValueType> type = settings.type(key);
        if (type.isEmpty()) return false;
        // A setting that is also a prefix is typed as its node: its value is checked when set.
        if (settings.isPrefix(key)) return true;
        addStaticTypeError(
                "settings."
                        + key
                        + " expects "
                        + CallMatcher.article(type.get())
                        + ", got "
                        + StaticArg.of(b.getRightExpression(), this::getType).describe(),
                assignment);
        return true;
    }

    @Override
    public List<MethodNode> handleMissingMethod(
            ClassNode receiver,
            String name,
            ArgumentListExpression args,
            ClassNode[] argTypes,
            MethodCall call) {
        if (!(call instanceof MethodCallExpression mce)) return Collections.emptyList();
        List<MethodNode> operator = UnknownTypeOperators.resolve(this, receiver, name, mce);
        if (operator != null) return operator;
        String full;
        StaticArg self = null;
        if (mce.isImplicitThis()) {
            if (functions.find(name).isPresent() && outsideScript(name + "()", mce)) {
                return List.of(newMethod(name, ClassHelper.OBJECT_TYPE));
            }
            full = name;
        } else if (receiver.equals(NAMESPACE)) {
            full = dotted(mce.getObjectExpression()) + "." + name;
        } else if (receiver.equals(SOURCE) || receiver.isDerivedFrom(SOURCE)) {
            full = name;
            self = new StaticArg(mce.getObjectExpression(), receiver, this::getType);
        } else if (isUnknown(receiver)) {
            // A value of unknown type: a named method call resolves at run time; what a few
            // such methods return is known whatever the value (xs.size() of a list, a map, a
            // string), so that i < xs.size() compares numbers.
            return List.of(
                    makeDynamic(call, KNOWN_RESULTS.getOrDefault(name, ClassHelper.OBJECT_TYPE)));
        } else {
            return Collections.emptyList();
        }
        Optional<OperatorSpec> spec = functions.find(full);
        if (spec.isEmpty() && self != null && functions.isDeclaredMethod(name)) {
            // A method that a plugin's source declares (a queue's push): its class resolves it at
            // run time.
            return List.of(makeDynamic(call, ClassHelper.OBJECT_TYPE));
        }
        if (spec.isEmpty() && self == null && !receiver.getMethods(name).isEmpty()) {
            // The script's own function (or an included one) called with the wrong arguments:
            // Groovy's
            // "Cannot find matching method" names the arguments, where "unknown operator" would
            // mislead.
            return Collections.emptyList();
        }
        if (spec.isEmpty()) {
            addStaticTypeError(
                    (self != null ? "sources have no method " : "unknown operator ")
                            + full
                            + "()"
                            + hint(full),
                    mce);
            return List.of(makeDynamic(call));
        }
        if (self != null && !spec.get().isSourceMethod()) {
            addStaticTypeError(
                    full
                            + "() does not take a source first, so it cannot be called as s."
                            + full
                            + "()",
                    mce);
            return List.of(makeDynamic(call));
        }
        List<Expression> given = args.getExpressions();
        List<StaticArg> list = new ArrayList<>();
        for (Expression e : given) list.add(StaticArg.of(e, this::getType));
        boolean valueFirst =
                !given.isEmpty() && !NamedArgumentSyntax.isNamed(given.getFirst(), given);
        if (valueFirst) list.set(0, StaticArg.value(given.getFirst(), this::getType));
        for (String error : CallMatcher.match(spec.get(), self, list).errors())
            addStaticTypeError(error, mce);
        if (valueFirst
                && !Boolean.FALSE.equals(list.getFirst().fits(ValueType.MAP))
                && mce.getArguments() instanceof ArgumentListExpression written) {
            NamedArgumentSyntax.markPositional(written);
        }
        ClassNode result =
                functions
                        .resultClass(full)
                        .map(ClassHelper::make)
                        .orElseGet(() -> resultType(spec.get().returns()));
        return List.of(makeDynamic(call, result));
    }

    /**
     * Whether the checker knows nothing of {@code type}: {@code def}, {@code Object}, a {@code T}.
     */
    static boolean isUnknown(ClassNode type) {
        return type.equals(ClassHelper.OBJECT_TYPE) || type.isGenericsPlaceHolder();
    }

    private String hint(String name) {
        return functions.closest(name).map(n -> "; did you mean " + n + "()?").orElse("");
    }

    private static String dotted(Expression e) {
        if (e instanceof VariableExpression v) return v.getName();
        if (e instanceof PropertyExpression p)
            return dotted(p.getObjectExpression()) + "." + p.getPropertyAsString();
        return e.getText();
    }

    /** {@code settings.frame} gives "frame."; {@code settings} gives "". */
    private static String settingsPath(Expression e) {
        if (e instanceof PropertyExpression p)
            return settingsPath(p.getObjectExpression()) + p.getPropertyAsString() + ".";
        return "";
    }

    static ClassNode resultType(ValueType t) {
        return switch (t) {
            case SOURCE -> SOURCE;
            case SOURCES -> ClassHelper.make(List.class);
            case OUTPUT -> ClassHelper.make(Output.class);
            case ENCODER -> ClassHelper.make(Encoder.class);
            case CLOCK -> ClassHelper.make(ClockInfo.class);
            case NUMBER -> ClassHelper.Double_TYPE;
            case INTEGER -> ClassHelper.Integer_TYPE;
            case STRING -> ClassHelper.STRING_TYPE;
            case BOOLEAN -> ClassHelper.Boolean_TYPE;
            case LIST -> ClassHelper.make(List.class);
            case MAP -> ClassHelper.make(Map.class);
            case CONDITION -> ClassHelper.make(Condition.class);
            case FUNCTION -> ClassHelper.CLOSURE_TYPE;
            case NONE -> ClassHelper.VOID_TYPE;
            case ANY -> ClassHelper.OBJECT_TYPE;
        };
    }

    private static ClassNode settingType(ValueType t) {
        return switch (t) {
            case NUMBER -> ClassHelper.Number_TYPE;
            case INTEGER -> ClassHelper.Integer_TYPE;
            case BOOLEAN -> ClassHelper.Boolean_TYPE;
            case STRING -> ClassHelper.STRING_TYPE;
            default -> ClassHelper.OBJECT_TYPE;
        };
    }
}
