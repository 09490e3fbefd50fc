package org.groovecast.scripts.plugins

import java.nio.file.Files
import java.nio.file.Path
import java.util.jar.JarOutputStream
import java.util.jar.Manifest
import org.groovecast.host.plugin.OperatorPlugins
import org.groovecast.scripts.support.Engine
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

@Tag("integration")
class PluginsSpec extends Specification {
    @TempDir
    Path dir

    def "the core, dsp, ffmpeg and transitions plugins provide their operators, each from its own class loader"() {
        when:
        def plugins = OperatorPlugins.load(Engine.PLUGINS)

        then:
        plugins.problems().isEmpty()
        plugins.plugins()*.pluginId.toSorted() == ['core', 'dsp', 'ffmpeg', 'transitions']
        ['sine', 'fallback', 'switchOn', 'output.file', 'wav', 'metadata.map'].every { plugins.functions().owner(it) == 'core' }
        ['single', 'playlist', 'request.queue', 'mp3', 'ffmpeg', 'output.file.hls'].every { plugins.functions().owner(it) == 'ffmpeg' }
        ['fade.in', 'fade.out', 'crossfade', 'cross'].every { plugins.functions().owner(it) == 'transitions' }
        ['normalize', 'lufs', 'compress', 'limit', 'blank.strip'].every { plugins.functions().owner(it) == 'dsp' }
        plugins.plugins().collect { it.pluginClassLoader }.toSet().size() == 4

        cleanup:
        plugins?.close()
    }

    def "a corrupt jar and a jar that is not a plugin are reported and skipped; the others load"() {
        given:
        Files.copy(Engine.PLUGINS.resolve('core.jar'), dir.resolve('core.jar'))
        Files.write(dir.resolve('broken.jar'), 'this is not a zip'.bytes)
        new JarOutputStream(Files.newOutputStream(dir.resolve('plain.jar')), new Manifest()).close()

        when:
        def plugins = OperatorPlugins.load(dir)

        then:
        plugins.functions().find('sine').present
        plugins.problems().size() == 2
        plugins.problems()[0].startsWith('broken.jar in ')
        plugins.problems()[1].startsWith('plain.jar in ')
        plugins.problems().every { it.endsWith('is not a loadable plugin (corrupt, or no Plugin-Id in its manifest); skipped') }

        cleanup:
        plugins?.close()
    }
}
