package org.groovecast.scripts.status

import com.fasterxml.jackson.databind.ObjectMapper
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.api.Queued
import org.groovecast.host.StationReloader
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import spock.lang.Shared
import spock.lang.Specification
import spock.lang.Stepwise
import spock.lang.Tag

/**
 * /metrics of a running station with everything it measures in use: a real-time clock, a mount
 * with a curl listener, a DJ on input.harbor, output.icecast to a real icecast2, an RTMP server
 * with an ffmpeg publisher and player, a request queue, reloads; checked by Prometheus's own
 * linter ({@code promtool check metrics}) and against the Grafana dashboard the distribution ships.
 */
@Stepwise
@Tag("integration")
class MetricsSpec extends Specification {
    static final Path DASHBOARD = Path.of(System.getProperty('groovecast.scripts', '.'))
            .resolve('../distribution/src/conf/grafana/groovecast-dashboard.json').normalize()

    @Shared Path dir
    @Shared int port = Net.freePort()
    @Shared int rtmpPort = Net.freePort()
    @Shared Icecast icecast
    @Shared StationReloader reloader
    @Shared Process listener
    @Shared List<Process> clients = []
    @Shared String script

    def setupSpec() {
        dir = Files.createTempDirectory('groovecast-metrics-')
        icecast = new Icecast().start()
        Path song = Media.mp3('metrics-queued.mp3', [330], 60, 'Queued')
        script = """
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 0.5)
            def radio = fallback(trackSensitive: false, live, sine(440, amplitude: 0.2))
            output.harbor(mp3(bitrate: 128), radio, mount: 'radio', port: ${port}, id: 'radio')
            output.icecast(mp3(bitrate: 128), radio, host: '127.0.0.1', port: ${icecast.port},
                    password: '${Icecast.SOURCE_PASSWORD}', mount: 'air')
            def requests = request.queue(id: 'requests')
            output.dummy(mksafe(requests), id: 'requests_out')
            rtmp.server(port: ${rtmpPort}, bind: '127.0.0.1')
            metrics.expose(port: ${port})
            """.stripIndent()
        Files.writeString(dir.resolve('metrics.groovy'), script)
        reloader = new StationReloader(dir.resolve('metrics.groovy'), Engine.plugins().functions(), [:])
        reloader.start()

        listener = new ProcessBuilder('curl', '-s', '-N', '-o', '/dev/null', "http://127.0.0.1:${port}/radio".toString())
                .redirectErrorStream(true).start()
        clients << ffmpeg('dj', ['-re', '-f', 'lavfi', '-i', 'sine=frequency=660:sample_rate=44100', '-ac', '2',
                                 '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', '-content_type', 'audio/mpeg',
                                 "icecast://source:secret@127.0.0.1:${port}/live".toString()])
        clients << ffmpeg('publisher', ['-re', '-f', 'lavfi', '-i', 'sine=frequency=880:sample_rate=44100', '-ac', '2',
                                        '-c:a', 'aac', '-f', 'flv', rtmp()])
        assert Net.await(10) { value(scrape(), 'groovecast_rtmp_publishers') == 1 }
        clients << ffmpeg('player', ['-i', rtmp(), '-c', 'copy', '-f', 'null', '-'])
        Queued queue = reloader.current().graph().sources().find { it instanceof Queued } as Queued
        3.times { queue.push(song.toString()) }
        System.gc() // a collection for the GC binder to show (it sees those after the station started)
        assert Net.await(20) {
            String t = scrape()
            value(t, 'groovecast_clock_frames_total', [clock: 'radio']) > 100 && // 2 s on air
                    value(t, 'groovecast_listeners', [mount: '/radio']) == 1 && value(t, 'groovecast_live_connected') == 1 &&
                    value(t, 'groovecast_icecast_connected') == 1 && value(t, 'groovecast_rtmp_players') == 1 &&
                    value(t, 'groovecast_request_queue_length', [queue: 'requests']) == 2 &&
                    value(t, 'jvm_gc_pause_seconds_count') != null
        }: "not everything connected: ${scrape()}"
    }

    def cleanupSpec() {
        clients*.destroy()
        listener?.destroy()
        reloader?.stop()
        icecast?.kill()
        dir?.toFile()?.deleteDir()
    }

    Process ffmpeg(String name, List<String> args) {
        new ProcessBuilder(['ffmpeg', '-nostdin', '-hide_banner', '-v', 'error'] + args).redirectErrorStream(true)
                .redirectOutput(dir.resolve("${name}.log").toFile()).start()
    }

    String rtmp() {
        "rtmp://127.0.0.1:${rtmpPort}/live/studio"
    }

    String scrape() {
        new URL("http://127.0.0.1:${port}/metrics").text
    }

    /** Every sample of the exposition: name, labels, value. */
    static List<Map> samples(String text) {
        text.readLines().findAll { it && !it.startsWith('#') }.collect { line ->
            def m = line =~ /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
            assert m.matches(): "not a sample line: ${line}"
            Map labels = [:]
            (m.group(2) ?: '').findAll(/(\w+)="((?:[^"\\]|\\.)*)"/) { all, k, v -> labels[k] = v }
            String v = m.group(3)
            [name: m.group(1), labels: labels,
             value: v == '+Inf' ? Double.POSITIVE_INFINITY : v == '-Inf' ? Double.NEGATIVE_INFINITY : v as double]
        }
    }

    /** The value of the first sample {@code name} with (at least) {@code labels}, or null. */
    static Double value(String text, String name, Map labels = [:]) {
        samples(text).find { it.name == name && labels.every { k, v -> it.labels[k] == v } }?.value as Double
    }

    def "every part of the station is measured, under Prometheus's names, with values that make sense"() {
        when:
        String text = scrape()
        Files.writeString(Path.of('target', 'metrics-scrape.txt'), text) // to look at
        Set<String> names = samples(text)*.name as Set

        then: 'the clocks: duty as a ratio, lag in seconds, frames counted, lateness quantiles from the clock histogram'
        value(text, 'groovecast_clock_duty_ratio', [clock: 'radio', station: 'metrics.groovy']) > 0
        value(text, 'groovecast_clock_duty_ratio', [clock: 'radio']) < 1
        value(text, 'groovecast_clock_lag_seconds', [clock: 'radio']) < 0.5
        value(text, 'groovecast_clock_frames_total', [clock: 'radio']) > 100
        double p50 = value(text, 'groovecast_clock_lateness_seconds', [clock: 'radio', quantile: '0.5'])
        double p99 = value(text, 'groovecast_clock_lateness_seconds', [clock: 'radio', quantile: '0.99'])
        p50 > 0 && p50 <= p99 && p99 <= 0.05
        value(text, 'groovecast_clock_lateness_seconds', [clock: 'radio', quantile: '0.999']) >= p99
        long ticks = value(text, 'groovecast_clock_lateness_seconds_count', [clock: 'radio']) as long
        ticks > 100
        double late = value(text, 'groovecast_clock_lateness_seconds_sum', [clock: 'radio'])
        late > 0 && late / ticks < 2 // seconds, not ms or ns: a slow start makes the ticks after it late while the clock catches up
        samples(text).findAll { it.name == 'groovecast_clock_frames_total' }.size() == 2 // the dummy output's clock too
        text.contains('# TYPE groovecast_clock_lateness_seconds summary')

        and: 'the mount, its listener and what it sent; the DJ; the icecast connection; RTMP; the queue'
        value(text, 'groovecast_listeners', [mount: '/radio', port: "${port}".toString()]) == 1
        value(text, 'groovecast_mount_sent_bytes_total', [mount: '/radio']) > 10_000
        value(text, 'groovecast_live_connected', [mount: '/live']) == 1
        value(text, 'groovecast_icecast_connected', [server: "127.0.0.1:${icecast.port}".toString(), mount: '/air']) == 1
        value(text, 'groovecast_rtmp_publishers', [port: "${rtmpPort}".toString()]) == 1
        value(text, 'groovecast_rtmp_players', [port: "${rtmpPort}".toString(), stream: 'live/studio']) == 1
        value(text, 'groovecast_request_queue_length', [queue: 'requests']) == 2

        and: 'the engine: scheduler share, blocking pool, callbacks; no reload yet'
        value(text, 'groovecast_scheduler_busy_ratio') > 0
        value(text, 'groovecast_scheduler_busy_ratio') < 1
        value(text, 'groovecast_blocking_queued') == 0
        value(text, 'groovecast_callback_registrations') >= 0
        value(text, 'groovecast_reloads_total') == 0
        value(text, 'groovecast_reload_failures_total') == 0
        value(text, 'groovecast_reload_last_duration_seconds').naN

        and: 'log lines by level (the tests log from WARN up)'
        ['error', 'warn', 'info', 'debug', 'trace'].every { value(text, 'logback_events_total', [level: it]) >= 0 }

        and: 'the process under the standard names, once: no groovecast_ copy, no nanoseconds'
        value(text, 'process_resident_memory_bytes') > 20e6
        value(text, 'process_cpu_seconds_total') > 0
        value(text, 'process_open_fds') > 10
        value(text, 'process_max_fds') >= value(text, 'process_open_fds')
        value(text, 'process_start_time_seconds') > 1.7e9
        value(text, 'process_uptime_seconds') > 0
        !names.any { it.startsWith('groovecast_process') || it.startsWith('process_files') || it.contains('_ns') }

        and: 'the JVM: memory, threads, GC, classes, its version'
        value(text, 'jvm_memory_used_bytes', [area: 'heap']) > 0
        value(text, 'jvm_threads_live_threads') > 10
        value(text, 'jvm_gc_pause_seconds_count') >= 1
        value(text, 'jvm_classes_loaded_classes') > 1000
        value(text, 'jvm_available_processors') == Runtime.runtime.availableProcessors()
        samples(text).find { it.name == 'jvm_info' }?.labels?.version == System.getProperty('java.runtime.version')
    }

    def "a reload is counted by the process, and what it kept is still measured on the new station"() {
        given:
        def before = reloader.current()
        Path file = dir.resolve('metrics.groovy')

        when: 'a reload that works, then one that fails to compile'
        Files.writeString(file, script.replace('amplitude: 0.2', 'amplitude: 0.25'))
        boolean reloaded = reloader.reload()
        Files.writeString(file, script + '\nsinus(440)\n')
        boolean broken = reloader.reload()
        Files.writeString(file, script)
        String text = scrape()

        then:
        reloaded && !broken
        reloader.current() != before
        value(text, 'groovecast_reloads_total') == 1
        value(text, 'groovecast_reload_failures_total') == 1
        value(text, 'groovecast_reload_last_duration_seconds') > 0
        value(text, 'groovecast_reload_last_duration_seconds') < 10

        and: 'the failed reload logged its error, counted by the new station'
        value(text, 'logback_events_total', [level: 'error']) >= 1

        and: 'the listener, the DJ, the icecast connection, the RTMP publisher and player stayed'
        Net.await(5) {
            String t = scrape()
            value(t, 'groovecast_listeners', [mount: '/radio']) == 1 && value(t, 'groovecast_live_connected') == 1 &&
                    value(t, 'groovecast_icecast_connected') == 1 && value(t, 'groovecast_rtmp_publishers') == 1 &&
                    value(t, 'groovecast_rtmp_players') == 1 && value(t, 'groovecast_request_queue_length') >= 1
        }
    }

    def "promtool check metrics finds nothing to say about the real exposition"() {
        expect:
        lint(scrape()) == [0, '']
    }

    def "the Grafana dashboard parses, imports with a Prometheus data source, and asks only for metrics the station exposes"() {
        given:
        Map dashboard = new ObjectMapper().readValue(DASHBOARD.toFile(), Map)
        System.gc() // GC pauses show once the station saw one (it was reloaded since the last)
        assert Net.await(5) { value(scrape(), 'jvm_gc_pause_seconds_count') != null }
        Set<String> exposed = samples(scrape())*.name as Set
        List<Map> panels = (dashboard.panels as List<Map>).findAll { it.type != 'row' }
        List<String> exprs = panels.collectMany { (it.targets as List<Map>)*.expr } as List<String>
        List<String> variables = (dashboard.templating.list as List<Map>).collect { it.query.query as String }
        Set<String> used = (exprs.collectMany { metricNames(it) } + variables.collect { (it =~ /label_values\((\w+)/)[0][1] }) as Set

        expect: 'a ${DS_PROMETHEUS} input, which Dashboards > Import asks for'
        dashboard.uid == 'groovecast'
        dashboard.__inputs.find { it.name == 'DS_PROMETHEUS' }?.pluginId == 'prometheus'
        panels.every { it.datasource.uid == '${DS_PROMETHEUS}' && it.targets.every { t -> t.datasource.uid == '${DS_PROMETHEUS}' } }
        exprs.every { it }

        and: 'the panels the dashboard is for'
        used.containsAll(['groovecast_clock_duty_ratio', 'groovecast_clock_lag_seconds', 'groovecast_clock_lateness_seconds',
                          'groovecast_listeners', 'groovecast_reloads_total', 'logback_events_total',
                          'groovecast_live_connected', 'groovecast_icecast_connected', 'groovecast_rtmp_publishers',
                          'groovecast_rtmp_players', 'process_resident_memory_bytes'])

        and: 'every metric it queries is in a real scrape: a renamed metric fails here'
        (used - exposed).isEmpty()
    }

    def "the listener and the RTMP publisher leave: the mount counts none, the stream's series goes, promtool still agrees"() {
        when:
        listener.destroy()
        clients[1].destroy() // the publisher; its player is told the stream ended

        then:
        Net.await(5) {
            String t = scrape()
            value(t, 'groovecast_listeners', [mount: '/radio']) == 0 && value(t, 'groovecast_rtmp_publishers') == 0 &&
                    value(t, 'groovecast_rtmp_players') == null
        }
        lint(scrape()) == [0, '']
    }

    /** promtool's exit code and what it said about {@code text}. */
    static List lint(String text) {
        Process p = new ProcessBuilder('promtool', 'check', 'metrics').redirectErrorStream(true).start()
        p.outputStream.withStream { it.write(text.getBytes('UTF-8')) }
        String said = p.inputStream.text
        assert p.waitFor(30, TimeUnit.SECONDS)
        [p.exitValue(), said.trim()]
    }

    /** The metric names a PromQL expression reads: not functions, keywords, labels, strings, ranges or numbers. */
    static Set<String> metricNames(String expr) {
        String e = expr.replaceAll(/"(?:[^"\\]|\\.)*"/, '""')
                .replaceAll(/\{[^}]*\}/, ' ')
                .replaceAll(/\[[^\]]*\]/, ' ')
                .replaceAll(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/, ' ')
        Set<String> keywords = ['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool',
                                'and', 'or', 'unless'] as Set
        (e.findAll(/\b[a-zA-Z_:][a-zA-Z0-9_:]*+(?!\s*\()/) as List<String>).findAll { !(it in keywords) } as Set
    }
}
