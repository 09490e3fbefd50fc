package org.groovecast.scripts.plugins

import java.nio.file.Files
import java.nio.file.Path
import java.util.jar.Attributes
import java.util.jar.JarEntry
import java.util.jar.JarFile
import java.util.jar.JarOutputStream
import java.util.jar.Manifest
import org.groovecast.host.Station
import org.groovecast.host.StationReloader
import org.groovecast.host.plugin.PluginSet
import org.groovecast.host.plugin.OperatorPlugins
import org.groovecast.host.script.ScriptErrors
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** `groovecast plugins` and a third-party plugin (plugins/examples/widener) used from a script. */
@Tag("integration")
class PluginCliSpec extends Specification {
    @TempDir
    Path dir

    static final Path WIDENER = Engine.SCRIPTS.resolve('../plugins/examples/widener/target/example-widener-1.0.0.jar').normalize()

    Path plugins() {
        Path p = dir.resolve('plugins')
        Files.createDirectories(p)
        Files.copy(Engine.PLUGINS.resolve('core.jar'), p.resolve('core.jar'))
        p
    }

    def "install the example plugin, use its operator on the samples, remove it and the script fails clearly"() {
        given:
        Path p = plugins()
        Path out = dir.resolve('wide.wav')
        String script = """
            def s = add([sine(440, amplitude: 0.4), amplify(0.0, sine(440))], normalize: false)
            output.file(wav(samplesize: 24), '${out}', example.widen(s, width: 0))
        """.stripIndent()

        when:
        def installed = Engine.cli('plugins', 'install', WIDENER.toString(), '--plugins-dir', p.toString())
        def listed = Engine.cli('plugins', 'list', '--plugins-dir', p.toString())
        def info = Engine.cli('plugins', 'info', 'example-widener', '--plugins-dir', p.toString())

        then:
        installed.code == 0
        installed.out.contains('installed example-widener 1.0.0')
        listed.out.readLines().any { it.startsWith('example-widener') && it.contains('example.widen') }
        info.out.contains('example.widen(source, width: number = 1.5)') || info.out.contains('example.widen(')

        when: 'a station uses it'
        OperatorPlugins loaded = OperatorPlugins.load(p)
        Station st = Station.load('wide.groovy', script, loaded.functions(), ['clock.sync': 'none'])
        st.start(java.time.Duration.ofSeconds(1))
        st.awaitStopped(java.time.Duration.ofSeconds(30))
        loaded.close()
        Wav w = Wav.read(out)

        then: 'width 0 makes mono: both channels equal'
        (1000..<40000).every { Math.abs(w.floats[0][it] - w.floats[1][it]) < 1e-6 }

        when:
        def removed = Engine.cli('plugins', 'remove', 'example-widener', '--plugins-dir', p.toString())
        OperatorPlugins without = OperatorPlugins.load(p)
        Station.load('wide.groovy', script, without.functions(), [:])

        then:
        removed.code == 0
        ScriptErrors e = thrown()
        e.message.startsWith('wide.groovy:3: ')
        e.message.contains('example')

        cleanup:
        without?.close()
    }

    def "an incompatible, a duplicate-name and a corrupt plugin are each refused or reported, and the others load"() {
        given:
        Path p = plugins()
        Path incompatible = rewrite(WIDENER, dir.resolve('future.jar'), 'example-future', '>=9.0.0')
        Path duplicate = rewrite(WIDENER, dir.resolve('twin.jar'), 'example-twin', '>=0.1.0')
        Path corrupt = dir.resolve('broken.jar')
        Files.write(corrupt, 'not a jar'.bytes)

        when:
        def a = Engine.cli('plugins', 'install', incompatible.toString(), '--plugins-dir', p.toString())
        def b = Engine.cli('plugins', 'install', corrupt.toString(), '--plugins-dir', p.toString())
        def c = Engine.cli('plugins', 'install', WIDENER.toString(), '--plugins-dir', p.toString())
        Files.copy(duplicate, p.resolve('twin.jar'))
        def listed = Engine.cli('plugins', 'list', '--plugins-dir', p.toString())

        then: 'the incompatible one is refused with the reason and not left behind'
        a.code == 1
        a.err.contains('cannot install example-future')
        !Files.exists(p.resolve('future.jar'))

        and: 'the corrupt one is refused'
        b.code == 1
        b.err.contains('is not a readable jar')

        and: 'two plugins claiming example.widen: the clash is reported, one keeps the name, core still loads'
        c.code == 0
        listed.code == 1
        listed.err.contains('example.widen')
        listed.out.readLines().any { it.startsWith('core') }
        listed.out.readLines().count { it.startsWith('example-') && it.contains('example.widen') } == 1
    }

    def "a plugin installed while the station runs takes effect at its next reload"() {
        given: 'a running station whose plugins directory holds only core'
        Path p = plugins()
        Path script = dir.resolve('station.groovy')
        Files.writeString(script, "output.file(wav(), '${dir}/out.wav', sine(440))\n")
        PluginSet set = new PluginSet(p)
        StationReloader reloader = new StationReloader(script, set.&functions as java.util.function.Supplier, [:])
        reloader.start()
        Files.writeString(script, "output.file(wav(), '${dir}/out.wav', example.widen(sine(440), width: 0))\n")

        when:
        boolean beforeInstall = reloader.reload()
        def installed = Engine.cli('plugins', 'install', WIDENER.toString(), '--plugins-dir', p.toString())
        boolean afterInstall = reloader.reload()

        then:
        !beforeInstall
        installed.code == 0
        afterInstall
        reloader.current().graph().sources().any { it.kind() == 'example.widen' }

        cleanup:
        reloader?.stop()
        set?.close()
    }

    /** A copy of a plugin jar with another Plugin-Id and Plugin-Requires. */
    static Path rewrite(Path from, Path to, String id, String requires) {
        new JarFile(from.toFile()).withCloseable { jar ->
            Manifest m = new Manifest(jar.manifest)
            m.mainAttributes.put(new Attributes.Name('Plugin-Id'), id)
            m.mainAttributes.put(new Attributes.Name('Plugin-Requires'), requires)
            new JarOutputStream(Files.newOutputStream(to), m).withCloseable { out ->
                jar.entries().each { JarEntry e ->
                    if (e.name == 'META-INF/MANIFEST.MF') return
                    out.putNextEntry(new JarEntry(e.name))
                    out.write(jar.getInputStream(e).bytes)
                    out.closeEntry()
                }
            }
        }
        to
    }
}
