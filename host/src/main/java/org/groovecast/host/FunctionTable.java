package org.groovecast.host;

import java.util.List;
import org.groovecast.api.OperatorSpec;
import org.groovecast.host.script.ScriptFunctions;

/**
 * Every name one station's script may call: the plugins' operators, then the engine's own providers
 * ({@link EngineOperators}), each spec added under its provider's owner as a plugin's is under its
 * id. A name two of them claim fails here, so the engine cannot shadow a plugin quietly.
 */
final class FunctionTable {
    private FunctionTable() {}

    static ScriptFunctions of(ScriptFunctions plugins, List<EngineOperators.Provider> engine) {
        ScriptFunctions table = new ScriptFunctions();
        for (OperatorSpec spec : plugins.all()) table.add(spec, plugins.owner(spec.name()));
        for (EngineOperators.Provider p : engine) {
            for (OperatorSpec spec : p.operators().operators()) {
                if (p.resultClass() == null) table.add(spec, p.owner());
                else table.add(spec, p.owner(), p.resultClass());
            }
        }
        return table;
    }
}
