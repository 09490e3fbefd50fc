package org.groovecast.scripts.requests

import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.host.script.ScriptError
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogList
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Wav
import org.slf4j.LoggerFactory
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** Files through FFmpeg: single, playlist, request.queue, request.dynamic, annotate and cues, bad media. */
@Tag("integration")
class RequestsSpec extends Specification {
    @TempDir
    Path dir

    Station render(String script, double seconds) {
        Engine.render('requests.groovy', script.replace('OUT', dir.resolve('out.wav').toString()), seconds)
    }

    Wav wav() { Wav.read(dir.resolve('out.wav')) }

    static double f(Wav w, double from, double to) { Math.round(w.frequency(from, to) / 10) * 10 }

    def "single loops a file, infallibly, and its tags reach onMetadata"() {
        given:
        Path mp3 = Media.mp3('single.mp3', [440], 2, 'Single Tone')

        when:
        Station st = render("""
            def s = single('${mp3}')
            s.onMetadata { m -> log.info("meta \${m.title} / \${m.artist}") }
            output.file(wav(), 'OUT', s)
        """, 5)
        Wav w = wav()

        then:
        w.seconds == 5.0d
        f(w, 0.2, 1.8) == 440
        f(w, 2.2, 3.8) == 440
        st.scriptLog().recent().findAll { it.startsWith('info: meta') }.toSet() == ['info: meta Single Tone / Groovecast Tests'] as Set
        st.scriptLog().recent().count { it.startsWith('info: meta') } >= 2
    }

    def "a playlist in normal mode plays its files in order, one track each"() {
        given:
        Path pl = dir.resolve('music')
        Files.createDirectories(pl)
        [[440, 'a'], [660, 'b'], [880, 'c']].each { freq, n -> Files.copy(Media.mp3("pl-${n}.mp3", [freq], 1), pl.resolve("${n}.mp3")) }

        when:
        Station st = render("""
            def p = playlist('${pl}', mode: 'normal', prefetch: 2)
            p.onTrack { m -> log.info("track \${m.filename.tokenize('/').last()}") }
            output.file(wav(), 'OUT', mksafe(p))
        """, 3.3)
        Wav w = wav()

        then:
        [f(w, 0.15, 0.9), f(w, 1.15, 1.9), f(w, 2.15, 2.9)] == [440, 660, 880]
        st.scriptLog().recent().take(3) == ['info: track a.mp3', 'info: track b.mp3', 'info: track c.mp3']
    }

    def "annotate: sets metadata and liq_cue_in/liq_cue_out cut the track where asked"() {
        given:
        Path mp3 = Media.mp3('three.mp3', [440, 660, 880], 1, 'Three')

        when:
        Station st = render("""
            def s = single('annotate:title="Cut",liq_cue_in="1.0",liq_cue_out="2.0":${mp3}')
            s.onTrack { m -> log.info("track \${m.title}") }
            output.file(wav(), 'OUT', s)
        """, 3)
        Wav w = wav()

        then: 'only the middle second, 660 Hz, again and again'
        f(w, 0.1, 0.9) == 660
        f(w, 1.1, 1.9) == 660
        f(w, 2.1, 2.9) == 660
        st.scriptLog().recent().take(3) == ['info: track Cut'] * 3
    }

    def "request.queue plays what is pushed; request.dynamic asks a function for each track"() {
        given:
        Path a = Media.mp3('q-a.mp3', [440], 1)
        Path b = Media.mp3('q-b.mp3', [660], 1)

        when:
        Station st = render("""
            def q = request.queue(queue: ['${a}'])
            q.push('${b}')
            def n = 0
            def d = request.dynamic { -> n++ % 2 == 0 ? '${b}' : '${a}' }
            output.file(wav(), 'OUT', mksafe(sequence(q, q, d)))
        """, 4.2)
        Wav w = wav()

        then:
        [f(w, 0.15, 0.9), f(w, 1.15, 1.9), f(w, 2.15, 2.9), f(w, 3.15, 3.9)] == [440, 660, 660, 440]
    }

    def "bad media: the good file plays, each bad one is logged once, the station keeps running"() {
        given:
        Path good = Media.mp3('good.mp3', [440], 1)
        Path truncated = dir.resolve('truncated.mp3')
        Files.write(truncated, Arrays.copyOf(Files.readAllBytes(good), 300))
        Path text = dir.resolve('text.mp3')
        Files.writeString(text, 'not audio at all\n' * 50)
        Path m3u = dir.resolve('list.m3u')
        Files.writeString(m3u, "${good}\n${truncated}\n${text}\n${dir.resolve('missing.mp3')}\n")
        ListAppender<ILoggingEvent> logs = new LogList()
        Logger logger = (Logger) LoggerFactory.getLogger('org.groovecast.ffmpeg.playlist.RequestSource')
        logger.addAppender(logs)
        logs.start()

        when:
        Station st = render("""
            output.file(wav(), 'OUT', mksafe(playlist('${m3u}', mode: 'normal')))
        """, 6)
        Wav w = wav()
        def warnings = logs.list*.formattedMessage

        then: 'the stream is whole and the good file plays'
        w.seconds == 6.0d
        f(w, 0.15, 0.9) == 440

        and: 'each bad file is named once'
        warnings.count { it.contains('truncated.mp3') } == 1
        warnings.count { it.contains('text.mp3') } == 1
        warnings.count { it.contains('missing.mp3') } == 1

        cleanup:
        logger.detachAppender(logs)
    }

    def "playlist files: a Latin-1 m3u naming accented files with an EXTINF title, a UTF-8 one with a byte-order mark, a pls with titles"() {
        given: 'files with accents in their names, made by ffmpeg, tagged with their own titles'
        Path music = dir.resolve('musique')
        Files.createDirectories(music)
        Files.copy(Media.mp3('pl-cafe.mp3', [440], 1, 'Tag of the file'), music.resolve('Café.mp3'))
        Files.copy(Media.mp3('pl-ete.mp3', [660], 1, 'Tag of Été'), music.resolve('Été.mp3'))
        byte[] latin1 = '#EXTM3U\n#EXTINF:1,Zoé - Crème brûlée\nCafé.mp3\nÉté.mp3\n'.getBytes('ISO-8859-1')
        Files.write(music.resolve('liste.m3u'), latin1)
        def bom = new ByteArrayOutputStream()
        bom.write([0xEF, 0xBB, 0xBF] as byte[])
        bom.write('Été.mp3\nCafé.mp3\n'.getBytes('UTF-8'))
        Files.write(music.resolve('bom.m3u'), bom.toByteArray())
        Files.write(music.resolve('liste.pls'), '[playlist]\nFile1=Été.mp3\nTitle1=Zoé - Sérénade\nNumberOfEntries=1\n'
                .getBytes('ISO-8859-1'))

        expect: 'the m3u is not UTF-8: strictly decoded it would have failed'
        !Arrays.equals(latin1, new String(latin1, 'UTF-8').getBytes('UTF-8'))

        when:
        Station st = Engine.render('charsets.groovy', """
            def tell = { name -> { m -> log.info("\${name}: \${m.artist} / \${m.title} / \${m.filename.tokenize('/').last()}") } }
            def a = playlist('${music.resolve('liste.m3u')}', mode: 'normal')
            def b = playlist('${music.resolve('bom.m3u')}', mode: 'normal')
            def c = playlist('${music.resolve('liste.pls')}', mode: 'normal')
            a.onTrack(tell('m3u'))
            b.onTrack(tell('bom'))
            c.onTrack(tell('pls'))
            output.file(wav(), '${dir.resolve('a.wav')}', mksafe(a))
            output.file(wav(), '${dir.resolve('b.wav')}', mksafe(b))
            output.file(wav(), '${dir.resolve('c.wav')}', mksafe(c))
        """, 2.2)
        def lines = st.scriptLog().recent()
        Wav a = Wav.read(dir.resolve('a.wav'))
        Wav b = Wav.read(dir.resolve('b.wav'))

        then: 'the Latin-1 list plays both files, the first titled by its EXTINF over its own tag'
        lines.findAll { it.startsWith('info: m3u:') }.take(2) ==
                ['info: m3u: Zoé / Crème brûlée / Café.mp3', 'info: m3u: Groovecast Tests / Tag of Été / Été.mp3']
        [f(a, 0.15, 0.9), f(a, 1.15, 1.9)] == [440, 660]

        and: 'the first entry after the byte-order mark plays'
        lines.findAll { it.startsWith('info: bom:') }.first() == 'info: bom: Groovecast Tests / Tag of Été / Été.mp3'
        [f(b, 0.15, 0.9), f(b, 1.15, 1.9)] == [660, 440]

        and: 'a pls Title names its File'
        lines.findAll { it.startsWith('info: pls:') }.first() == 'info: pls: Zoé / Sérénade / Été.mp3'
    }

    def "a playlist whose files all fail is unavailable, not spinning, and fallback covers it"() {
        given:
        Path empty = dir.resolve('broken')
        Files.createDirectories(empty)
        Files.writeString(empty.resolve('x.mp3'), 'nope')

        when:
        Station st = render("""
            def p = playlist('${empty}')
            output.file(wav(), 'OUT', fallback(p, sine(220, amplitude: 0.3)))
        """, 3)

        then:
        f(wav(), 0.5, 2.5) == 220
    }

    def "reloadMode: 'rounds' reads the directory again after a round, 'never' keeps its first list"() {
        given:
        Path pl = dir.resolve('rounds')
        Files.createDirectories(pl)
        Files.copy(Media.mp3('r-a.mp3', [440], 1), pl.resolve('a.mp3'))
        Station st = Engine.load('rounds.groovy', """
            def p = playlist('${pl}', mode: 'normal', reloadMode: '${mode}')
            p.onTrack { m -> log.info("track \${m.filename.tokenize('/').last()}") }
            output.dummy(mksafe(p))
        """)

        when: 'a second file appears while the first round plays, in real time'
        st.start(null)
        Thread.sleep(500)
        Files.copy(Media.mp3('r-b.mp3', [660], 1), pl.resolve('b.mp3'))
        Thread.sleep(4500)
        st.stop()

        then:
        st.scriptLog().recent().contains('info: track b.mp3') == reloads

        where:
        mode     | reloads
        'rounds' | true
        'never'  | false
    }

    def "single() of a file that cannot be played is a located script error"() {
        when:
        Engine.load('bad-single.groovy', "def s = single('/nonexistent/song.mp3')\noutput.dummy(s)\n")

        then:
        ScriptError e = thrown()
        e.message.startsWith('bad-single.groovy:1: single(): cannot play /nonexistent/song.mp3: cannot open')
    }
}
