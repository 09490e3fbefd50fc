package org.groovecast.scripts.status

import java.lang.ref.WeakReference
import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.StationReloader
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** The metrics of a station hook into the JVM (GC notifications) and the logging: a reload must unhook them. */
@Tag("integration")
class MetricsReloadSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()

    def "reloads with metrics exposed leave nothing of the stations they replaced"() {
        given:
        Path script = dir.resolve('station.groovy')
        String text = """
            def s = sine(440, amplitude: 0.3).tracks(duration: 1)
            s.onTrack { m -> log.debug("track ${'$'}{m}") }
            output.harbor(mp3(bitrate: 128), s, mount: 'radio', port: ${port}, burst: 0)
            metrics.expose(port: ${port})
            """.stripIndent()
        Files.writeString(script, text)
        def reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()
        List<WeakReference> replaced = []

        when: 'five reloads, each station scraped, with garbage collections in between (the GC binder hears of each)'
        // Not the first station: when it is the first script this JVM runs (this spec alone), state set
        // up for the first run keeps its class, with or without metrics (ReloadSpec's check alike).
        Files.writeString(script, text.replace('440', '445'))
        assert reloader.reload()
        5.times { i ->
            // scraped once the new station answers (a clean-clone CI at load found /metrics 404 300 ms after a reload)
            assert Net.await(10) {
                try { new URL("http://127.0.0.1:${port}/metrics").text.contains('jvm_gc_') } catch (IOException e) { false }
            }
            System.gc()
            def old = reloader.current()
            replaced << new WeakReference(old) << new WeakReference(old.scriptClass())
            Files.writeString(script, text.replace('440', "${450 + i}"))
            assert reloader.reload()
        }
        boolean gone = Net.await(10) { System.gc(); replaced.every { it.get() == null } }
        String now = new URL("http://127.0.0.1:${port}/metrics").text

        then: 'every replaced station and its script class are collectable, and the reloads are counted'
        gone
        now.contains('groovecast_reloads_total{station="station.groovy"} 6.0')

        cleanup:
        reloader?.stop()
    }
}
