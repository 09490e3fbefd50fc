package org.groovecast.host.script;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The Groovy front end behind the {@link ScriptFrontEnd} seam: {@link ScriptCompiler} compiles and
 * checks, the compiled {@link StationScript} runs. It reads any file another front end does not
 * claim, as the engine always has.
 */
public final class GroovyFrontEnd implements ScriptFrontEnd {
    @Override
    public boolean reads(String fileName) {
        return fileName.endsWith(".groovy");
    }

    @Override
    public String language() {
        return "Groovy " + groovy.lang.GroovySystem.getVersion();
    }

    @Override
    public Script load(
            Path file, ScriptFunctions functions, ScriptSettings settings, Consumer<Path> reading) {
        return new Compiled(ScriptCompiler.compile(file, functions, settings, reading));
    }

    @Override
    public Script load(
            String fileName, String text, ScriptFunctions functions, ScriptSettings settings) {
        return new Compiled(ScriptCompiler.compile(fileName, text, functions, settings));
    }

    private record Compiled(ScriptCompiler.Compiled compiled) implements Script {
        @Override
        public ScriptFiles files() {
            return compiled.files();
        }

        @Override
        public void run(ScriptRuntime runtime) {
            runtime.run(compiled.instantiate());
        }

        @Override
        public Optional<ScriptLine> currentLine() {
            return ScriptLocation.current(compiled.files());
        }

        @Override
        public void unload() {
            compiled.unload();
        }

        @Override
        public Class<?> compiledClass() {
            return compiled.type();
        }
    }
}
