package org.groovecast.scripts.hls

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.scripts.support.Browser
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Net
import org.opentest4j.TestAbortedException
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * The title inside HLS as an app player reads it: hls.js (from npm, in the headless Chromium the
 * status page is tested in) plays the harbor's HLS (output.file.hls served by harbor.http.static)
 * and fires its metadata event (FRAG_PARSING_METADATA) with the title from the ID3 tags of
 * MPEG-TS, fragmented MP4 and packed audio segments.
 */
@Tag("integration")
class HlsBrowserSpec extends Specification {
    /** Where .ci/run installs hls.js: {@code npm install --prefix ~/.cache/groovecast/npm hls.js@<pinned>}. */
    static final Path NPM = Path.of(System.getProperty('groovecast.npm',
            System.getProperty('user.home') + '/.cache/groovecast/npm'))
    static final Path HLS_JS = NPM.resolve('node_modules/hls.js/dist/hls.min.js')

    @TempDir
    Path dir

    int port = Net.freePort()
    Station station
    Browser browser

    def cleanup() {
        browser?.close()
        station?.stop()
    }

    /** The first of the rendition's segment files, by media sequence, whose bytes hold {@code text}. */
    static long firstSegmentWith(Path dir, String rendition, String text) {
        def files = Files.list(dir).withCloseable { s ->
            s.map { it.fileName.toString() }.filter { it ==~ /${rendition}_\d+\.(ts|m4s|aac)/ }.toList()
        }
        files.collect { (it =~ /_(\d+)\./)[0][1] as long }.sort().find { n ->
            Path f = dir.resolve(files.find { it.startsWith("${rendition}_${n}.") })
            new String(Files.readAllBytes(f), 'ISO-8859-1').contains(text)
        } ?: -1
    }

    def "hls.js fires its metadata event with the title at the head of the first fragment it plays and with the new title in the segment of the change"() {
        given: 'a station whose title changes when the test asks, in three kinds of HLS the harbor serves'
        assert Browser.available(): "the browser test needs Debian's chromium (apt-get install -y chromium); .ci/run installs it"
        if (!Files.exists(HLS_JS)) {
            throw new TestAbortedException("hls.js is not installed in ${NPM}: npm install --prefix ${NPM} hls.js@1.7.4 (.ci/run does)")
        }
        Path site = Files.createDirectories(dir.resolve('site'))
        Files.writeString(site.resolve('player.html'), getClass().getResource('/hls/player.html').text)
        Files.copy(HLS_JS, site.resolve('hls.min.js'))
        station = Engine.load('hls-titles.groovy', """
            def s = sine(440, amplitude: 0.3)
            s.insertMetadata(title: 'First Song', artist: 'Band A')
            output.file.hls('${site}/live', [ts: aac(bitrate: 64), fmp4: opus(bitrate: 64)], s, segmentDuration: 1, segments: 30)
            output.file.hls('${site}/packed', [aac: aac(bitrate: 64)], s, segmentDuration: 1, segments: 30, packedAudio: true)
            harbor.http.static('/hls', '${site}', port: ${port})
            harbor.http.register('/change', port: ${port}) { req -> s.insertMetadata(title: 'Second Song', artist: 'Band B'); 'changed' }
        """.stripIndent(), [:])
        station.start(null)
        assert Net.await(10) { Files.exists(site.resolve('packed/aac.m3u8')) && HlsSpec.extinf(site.resolve('live/ts.m3u8')).size() >= 3 }
        browser = new Browser(800, 600, ['--autoplay-policy=no-user-gesture-required'])
        def players = ['ts': 'live/ts.m3u8', 'fmp4': 'live/fmp4.m3u8', 'packed': 'packed/aac.m3u8']

        when: 'the three play from the live edge until each saw a title'
        browser.open("http://127.0.0.1:${port}/hls/player.html")
        players.each { name, url -> browser.eval("play('${name}', '${url}'); true") }
        boolean joined = browser.await(20) { players.keySet().every { browser.eval("window.players['${it}'].samples.length") > 0 } }
        Map before = browser.eval('window.players') as Map

        then: 'the first fragment each played had the title playing then at its head'
        joined
        players.keySet().every { before[it].fatal == null }
        players.keySet().every { before[it].samples[0].title == 'First Song' && before[it].samples[0].artist == 'Band A' }
        players.keySet().every { Math.abs((before[it].samples[0].pts as double) - (before[it].samples[0].start as double)) < 0.1 }

        when: 'the title changes'
        assert new URL("http://127.0.0.1:${port}/change").text == 'changed'
        boolean changed = browser.await(15) {
            players.keySet().every { n -> browser.eval("window.players['${n}'].samples.some(s => s.title === 'Second Song')") }
        }
        Map after = browser.eval('window.players') as Map
        Map<String, Map> first = players.keySet().collectEntries { n -> [n, after[n].samples.find { it.title == 'Second Song' }] }

        then: 'each fires it, by its artist, in the fragment whose file carries it first'
        changed
        players.keySet().every { after[it].fatal == null }
        first.values().every { it.artist == 'Band B' }
        first.ts.sn == firstSegmentWith(site.resolve('live'), 'ts', 'Second Song')
        first.fmp4.sn == firstSegmentWith(site.resolve('live'), 'fmp4', 'Second Song')
        first.packed.sn == firstSegmentWith(site.resolve('packed'), 'aac', 'Second Song')

        and: 'MPEG-TS and fragmented MP4 place it within that fragment (at the change), packed audio at its head'
        ['ts', 'fmp4'].every { n ->
            double pts = first[n].pts as double, start = first[n].start as double
            pts >= start - 0.05 && pts <= start + (first[n].duration as double) + 0.05
        }
        Math.abs((first.packed.pts as double) - (first.packed.start as double)) < 0.1
        browser.errors.isEmpty()
    }
}
