package org.groovecast.host.script;

import static org.codehaus.groovy.ast.tools.GeneralUtils.assignS;
import static org.codehaus.groovy.ast.tools.GeneralUtils.fieldX;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.codehaus.groovy.ast.ClassNode;
import org.codehaus.groovy.ast.FieldNode;
import org.codehaus.groovy.ast.MethodNode;
import org.codehaus.groovy.ast.Parameter;
import org.codehaus.groovy.ast.expr.ConstantExpression;
import org.codehaus.groovy.ast.expr.Expression;
import org.codehaus.groovy.ast.stmt.BlockStatement;
import org.codehaus.groovy.ast.stmt.Statement;
import org.codehaus.groovy.classgen.GeneratorContext;
import org.codehaus.groovy.control.CompilePhase;
import org.codehaus.groovy.control.SourceUnit;
import org.codehaus.groovy.control.customizers.CompilationCustomizer;

/**
 * A script's {@code @Field} values are computed as its body starts rather than when its object is
 * made: an operator call ({@code @Field def music = playlist(...)}) needs the station's runtime,
 * which the script gets between the two, and the static checker resolves the names of a closure
 * ({@code @Field Closure say = { log.info(it) }}) only inside a method. Constants stay where they
 * are; the order of the fields is kept, and every value is still there before the first statement.
 */
final class FieldInitializers extends CompilationCustomizer {
    FieldInitializers() {
        // After @Field made its fields, before the static checker reads the methods.
        super(CompilePhase.SEMANTIC_ANALYSIS);
    }

    @Override
    public void call(SourceUnit source, GeneratorContext context, ClassNode script) {
        if (!script.isScript()) return;
        MethodNode run = script.getDeclaredMethod("run", Parameter.EMPTY_ARRAY);
        if (run == null || !(run.getCode() instanceof BlockStatement block)) return;
        List<Statement> moved = new ArrayList<>();
        for (FieldNode f : script.getFields()) {
            Expression init = f.getInitialExpression();
            if (init == null || init instanceof ConstantExpression || f.getName().contains("$"))
                continue;
            f.setInitialValueExpression(null);
            f.setModifiers(f.getModifiers() & ~Modifier.FINAL);
            Statement assign = assignS(fieldX(f), init);
            assign.setSourcePosition(f);
            moved.add(assign);
        }
        block.getStatements().addAll(0, moved);
    }
}
