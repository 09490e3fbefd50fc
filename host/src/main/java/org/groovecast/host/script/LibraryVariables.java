package org.groovecast.host.script;

import java.lang.reflect.Modifier;
import java.util.List;
import java.util.function.Predicate;
import org.codehaus.groovy.ast.ClassHelper;
import org.codehaus.groovy.ast.ClassNode;
import org.codehaus.groovy.ast.MethodNode;
import org.codehaus.groovy.ast.Parameter;
import org.codehaus.groovy.ast.expr.BinaryExpression;
import org.codehaus.groovy.ast.expr.ClosureExpression;
import org.codehaus.groovy.ast.expr.DeclarationExpression;
import org.codehaus.groovy.ast.expr.EmptyExpression;
import org.codehaus.groovy.ast.expr.Expression;
import org.codehaus.groovy.ast.expr.VariableExpression;
import org.codehaus.groovy.ast.stmt.BlockStatement;
import org.codehaus.groovy.ast.stmt.EmptyStatement;
import org.codehaus.groovy.ast.stmt.ExpressionStatement;
import org.codehaus.groovy.ast.stmt.Statement;
import org.codehaus.groovy.classgen.GeneratorContext;
import org.codehaus.groovy.control.CompilePhase;
import org.codehaus.groovy.control.SourceUnit;
import org.codehaus.groovy.control.customizers.CompilationCustomizer;
import org.codehaus.groovy.syntax.Token;
import org.codehaus.groovy.syntax.Types;

/**
 * An included library's top-level variables ({@code def apiUrl = ...}, {@code def onLive = { ...
 * }}) are shared with the script that includes it, as a station engineer expects of an include:
 * each becomes a property of the library, assigned where its declaration stands (so when the
 * include runs), which the library's functions see too and {@link Includes} gives the including
 * script, to read, write and call like its own. Before its names are resolved, so that every use of
 * the variable in the library refers to the property.
 */
final class LibraryVariables extends CompilationCustomizer {
    private final Predicate<String> isLibrary;

    /**
     * @param isLibrary whether a compile unit (by name) is an included library
     */
    LibraryVariables(Predicate<String> isLibrary) {
        super(CompilePhase.CONVERSION);
        this.isLibrary = isLibrary;
    }

    @Override
    public void call(SourceUnit source, GeneratorContext context, ClassNode script) {
        if (!script.isScript() || !isLibrary.test(source.getName())) return;
        MethodNode run = script.getDeclaredMethod("run", Parameter.EMPTY_ARRAY);
        if (run == null || !(run.getCode() instanceof BlockStatement block)) return;
        List<Statement> statements = block.getStatements();
        for (int i = 0; i < statements.size(); i++) {
            if (!(statements.get(i) instanceof ExpressionStatement es)
                    || !(es.getExpression() instanceof DeclarationExpression d)
                    || d.isMultipleAssignmentDeclaration()
                    || !d.getAnnotations().isEmpty()) continue; // @Field: a field already
            statements.set(i, share(script, es, d));
        }
    }

    /** The property for {@code d}'s variable, and the statement assigning it its value. */
    private static Statement share(
            ClassNode script, ExpressionStatement es, DeclarationExpression d) {
        VariableExpression v = d.getVariableExpression();
        Expression value = d.getRightExpression();
        ClassNode type = v.getOriginType();
        if (ClassHelper.isDynamicTyped(type) && value instanceof ClosureExpression) {
            type = ClassHelper.CLOSURE_TYPE.getPlainNodeReference(); // callable as onLive()
        }
        script.addProperty(v.getName(), Modifier.PUBLIC, type, null, null, null)
                .getField()
                .setSourcePosition(d);
        if (value instanceof EmptyExpression) return EmptyStatement.INSTANCE; // def x
        BinaryExpression assign =
                new BinaryExpression(
                        new VariableExpression(v.getName()),
                        Token.newSymbol(Types.ASSIGN, d.getLineNumber(), d.getColumnNumber()),
                        value);
        assign.setSourcePosition(d);
        ExpressionStatement st = new ExpressionStatement(assign);
        st.setSourcePosition(es);
        st.copyStatementLabels(es);
        return st;
    }
}
