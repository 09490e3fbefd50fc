package org.groovecast.scripts

import org.groovecast.host.Station
import spock.lang.Specification

/** /metrics in Prometheus text format, through Micrometer. */
class MetricsSpec extends Specification {
    int port = Net.freePort()
    Station station

    def cleanup() {
        station?.stop()
    }

    def "clocks, mounts, live inputs, callback registrations, the blocking pool and memory are exposed, read at scrape time"() {
        given:
        station = Engine.load('metrics.groovy', """
            def live = input.harbor('live', port: ${port})
            def tone = sine()
            tone.onTrack { m -> }
            output.harbor(mp3(), fallback(trackSensitive: false, live, tone), mount: 'radio', port: ${port}, id: 'radio')
            metrics.expose(port: ${port})
        """.stripIndent(), [:])
        station.start(null)
        def listener = new URL("http://127.0.0.1:${port}/radio").openStream()
        listener.read(new byte[4096])

        when:
        String text = new URL("http://127.0.0.1:${port}/metrics").text
        long registered = station.graph().sources().sum { it.registrations() } as long

        then:
        text =~ /groovecast_clock_duty\{clock="radio",station="metrics.groovy"\} 0\.\d+/
        text =~ /groovecast_clock_lag_seconds\{clock="radio",station="metrics.groovy"\} /
        text.contains("groovecast_listeners{mount=\"/radio\",port=\"${port}\",station=\"metrics.groovy\"} 1.0")
        text =~ /groovecast_mount_sent_bytes_total\{mount="\/radio",port="\d+",station="metrics.groovy"\} [1-9]/
        text.contains('groovecast_live_connected{mount="/live",station="metrics.groovy"} 0.0')
        registered >= 1
        text.contains("groovecast_callback_registrations{station=\"metrics.groovy\"} ${registered as double}")
        text.contains('groovecast_blocking_queued{station="metrics.groovy"}')
        text =~ /groovecast_process_resident_bytes\{station="metrics.groovy"\} [1-9]/
        text.contains('jvm_memory_used_bytes{')

        when: 'the listener leaves'
        listener.close()

        then:
        Net.await(5) { new URL("http://127.0.0.1:${port}/metrics").text.contains("groovecast_listeners{mount=\"/radio\",port=\"${port}\",station=\"metrics.groovy\"} 0.0") }
    }
}
