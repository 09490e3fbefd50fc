package org.groovecast.scripts.azuracast

import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.support.AzuraCastApi
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.HeardTones
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * scripts/azuracast-style.groovy, the shape AzuraCast generates, against real peers: a private
 * icecast2 fed MP3 and AAC, ffmpeg as the DJ's source client and as a listener of the station's own
 * mount, and the JDK's HTTP server as the AzuraCast API. Checked by ear (each playlist, request and
 * DJ is a tone of its own), by the titles icecast shows, and by the API calls the station makes.
 */
// alone (scripts/pom.xml): it pushes a request, a DJ and a kick at wall-clock times and looks for each
// in a recording of the stream from that time on, which holds while the stream keeps within about a
// second of the wall clock. Beside other specs at load 15-20 the request was not found after its push
// in 3 runs of 5 (and once alone in a fresh JVM at load 4.5): last of the alone specs, in a warm JVM.
@Tag("integration")
@Tag("alone")
class AzuraCastStyleSpec extends Specification {
    static final String KEY = 'azuracast-key'
    // each kind of track a tone of its own, so that the listener's recording says what played
    static final Map<String, Integer> TONES = [morning: 660, jingle: 880, general: 440, rock: 550,
                                               next: 1100, request: 990, dj: 330]

    @TempDir
    Path dir

    Icecast icecast
    AzuraCastApi api
    Station station
    Process listener

    def cleanup() {
        listener?.destroyForcibly()
        station?.stop()
        api?.stop()
        icecast?.kill()
    }

    /** The station's media and its playlists as AzuraCast writes them: annotate:...:media:... lines. */
    Map<String, Path> writeLibrary() {
        Path media = Files.createDirectories(dir.resolve('media'))
        TONES.each { name, freq ->
            if (name != 'dj') Files.copy(Media.mp3("azuracast-${name}-3s.mp3", [freq], 3, name), media.resolve("${name}.mp3"))
        }
        Path lists = Files.createDirectories(dir.resolve('playlists'))
        Files.writeString(lists.resolve('morning.m3u'), 'annotate:title="Morning Show",artist="AzuraCast":media:morning.mp3\n')
        Files.writeString(lists.resolve('general.m3u'), 'annotate:title="General Rotation",artist="AzuraCast":media:general.mp3\n')
        Files.writeString(lists.resolve('rock.m3u'), '#EXTINF:3,AzuraCast - Rock Block\nmedia:rock.mp3\n')
        Files.writeString(lists.resolve('jingles.m3u'), 'annotate:title="Hourly Jingle",artist="AzuraCast":media:jingle.mp3\n')
        [media: media, playlists: lists]
    }

    String control(int port, String command, String key = KEY) {
        def r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:${port}/telnet"))
                .header('X-Liquidsoap-Api-Key', key).POST(HttpRequest.BodyPublishers.ofString(command)).build(),
                HttpResponse.BodyHandlers.ofString())
        "${r.statusCode()} ${r.body().trim()}"
    }

    static Process dj(int port, String password, double seconds) {
        new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i',
                "sine=frequency=${TONES.dj}:sample_rate=44100:duration=${seconds}".toString(), '-ac', '2',
                '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', '-content_type', 'audio/mpeg',
                "icecast://source:${password}@127.0.0.1:${port}/live".toString()).redirectErrorStream(true).start()
    }

    static List<String> heard(Wav wav) {
        HeardTones.heard(wav, TONES)
    }

    // Searched from the half second holding {@code from}: the recording runs within a fraction of a
    // second of the wall clock (the listener joins at once, the burst holding the stream's start),
    // and each tone searched after an event plays only after it, or (the AutoDJ back) is not on air then.
    static double firstHeard(List<String> tones, String tone, double from = 0) {
        HeardTones.firstHeard(tones, tone, from)
    }

    def "an AzuraCast-style station: schedules, the AutoDJ's API, requests, a DJ logged in by the API, the show archived"() {
        given: 'icecast, the API, the library'
        icecast = new Icecast().start()
        api = new AzuraCastApi(false)
        Map<String, Path> library = writeLibrary()
        int port = Net.freePort()
        Path recordings = dir.resolve('recordings')
        Path hls = dir.resolve('hls')
        Path air = dir.resolve('air.wav')
        List<String> titles = new CopyOnWriteArrayList<>()

        and: 'the station, its clock starting at 08:59:52 so that the morning show ends 8 s in and the hourly jingle falls due,'
        and: 'its random choices seeded: weighted 3 to 1, the rock playlist could otherwise miss the minute (one run in five)'
        station = Station.load(Engine.SCRIPTS.resolve('azuracast-style.groovy'), Engine.plugins().functions(),
                ['clock.startTime': '2026-12-02T08:59:52', 'random.seed': '1'],
                [MEDIA: library.media.toString(), PLAYLISTS: library.playlists.toString(), RADIO_PORT: port.toString(),
                 AZURACAST_API_URL: api.url, AZURACAST_API_KEY: KEY,
                 ICECAST_HOST: '127.0.0.1', ICECAST_PORT: icecast.port.toString(), ICECAST_PASSWORD: Icecast.SOURCE_PASSWORD,
                 RECORDINGS: recordings.toString(), HLS_DIR: hls.toString()])

        when: 'it plays, a listener recording its own mount and a watcher reading the titles icecast shows'
        long t0 = System.nanoTime()
        station.start(null)
        Closure<Double> now = { -> (System.nanoTime() - t0) / 1e9 }
        listener = new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', "http://127.0.0.1:${port}/radio".toString(),
                '-map_metadata', '-1', '-fflags', '+bitexact', '-flags:a', '+bitexact',
                '-ac', '2', '-ar', '44100', '-c:a', 'pcm_s16le', air.toString()).redirectErrorStream(true).start()
        Thread watcher = Thread.startVirtualThread {
            while (!Thread.currentThread().interrupted) {
                def status = icecast.status()
                def sources = status ? AzuraCastApi.parse(status).icestats.source : null
                def mp3 = (sources instanceof List ? sources : [sources]).find { it?.listenurl?.endsWith('/radio.mp3') }
                if (mp3?.title && (titles.empty || titles.last() != mp3.title)) titles << mp3.title
                try { Thread.sleep(200) } catch (InterruptedException ignored) { return }
            }
        }

        and: 'at 16 s the API has a next song for the AutoDJ'
        Thread.sleep(16_000)
        api.nextSong.set('annotate:title="Next Song",artist="AzuraCast AutoDJ":media:next.mp3')

        and: 'at 26 s a listener request is pushed over POST /telnet, and one with a wrong key is refused'
        Thread.sleep(26_000 - (long) (now() * 1000))
        String pushed = control(port, 'requests.push annotate:title="Requested Song",artist="A Listener":media:request.mp3')
        String refused = control(port, 'requests.push media:rock.mp3', 'wrong-key')
        double pushedAt = now()

        and: 'at 34 s a DJ the API does not know is refused; dj1 logs in (user:password in the password) and is on air'
        Thread.sleep(34_000 - (long) (now() * 1000))
        Process stranger = dj(port, 'dj2:nope', 5)
        boolean strangerEnded = stranger.waitFor(10, TimeUnit.SECONDS)
        double djAt = now()
        Process dj1 = dj(port, 'dj1:secret', 30)
        Thread.sleep(8_000)

        and: 'AzuraCast kicks the DJ (input_streamer.stop over POST /telnet); the AutoDJ goes on'
        String kicked = control(port, 'input_streamer.stop')
        double kickedAt = now()
        boolean djEnded = dj1.waitFor(10, TimeUnit.SECONDS)
        Thread.sleep(8_000)
        String metrics = new URL("http://127.0.0.1:${port}/metrics").text
        List<Path> hlsFiles = Files.list(hls).withCloseable { it.toList() }
        station.stop()
        watcher.interrupt()
        listener.destroy()   // SIGTERM: ffmpeg writes the WAV header and exits
        assert listener.waitFor(10, TimeUnit.SECONDS)
        List<String> tones = heard(Wav.read(air))

        then: 'the morning show plays in its window only, then the hourly jingle once'
        firstHeard(tones, 'morning') >= 0 && firstHeard(tones, 'morning') < 4
        firstHeard(tones, 'morning', 13) == -1
        firstHeard(tones, 'jingle') >= 7 && firstHeard(tones, 'jingle') < 14
        firstHeard(tones, 'jingle', firstHeard(tones, 'jingle') + 3) == -1

        and: 'between them the weighted rotation, both of its playlists'
        firstHeard(tones, 'general', 9) > 0
        firstHeard(tones, 'rock', 9) > 0

        and: "the AutoDJ plays the API's next song within its retry delay and a track"
        double next = firstHeard(tones, 'next', 16)
        next > 0 && next < 16 + 3 + 3 + 2
        api.calls.findAll { it.path == 'nextsong' }.every { it.key == KEY }

        and: 'the pushed request plays next, within a track; the wrong key ran nothing'
        pushed ==~ /200 \d+/
        refused.startsWith('401')
        double request = firstHeard(tones, 'request', pushedAt)
        request > 0 && request < pushedAt + 3 + 2
        firstHeard(tones, 'rock', request) < 0 || tones.count { it == 'request' } <= 8

        and: 'the stranger was refused after asking the API; dj1 was on air within its buffer and the transition'
        strangerEnded && stranger.exitValue() != 0
        api.calls.find { it.path == 'auth' && it.body.user == 'dj2' && it.body.password == 'nope' }
        double live = firstHeard(tones, 'dj', djAt)
        live > 0 && live < djAt + 1 + 1 + 1.5
        api.calls.find { it.path == 'djon' && it.body.user == 'dj1' }

        and: 'kicked, the DJ was gone and the AutoDJ back within the transition'
        kicked.startsWith('200 Done')
        djEnded
        double back = [firstHeard(tones, 'general', kickedAt), firstHeard(tones, 'rock', kickedAt)].findAll { it >= 0 }.min()
        back > 0 && back < kickedAt + 2.5
        api.calls.find { it.path == 'djoff' && it.body.user == 'dj1' }

        and: 'icecast showed the titles in the order they played (as "artist - title"): back to the AutoDJ with the title of what it plays'
        List<String> shown = titles.collect { it.contains(' - ') ? it.substring(it.indexOf(' - ') + 3) : it }
        List<String> order = ['Morning Show', 'Hourly Jingle', 'Next Song', 'Requested Song', 'DJ One']
        shown.containsAll(order)
        order.collect { shown.indexOf(it) } == order.collect { shown.indexOf(it) }.sort()
        titles.contains('AzuraCast AutoDJ - Next Song') && titles.contains('A Listener - Requested Song')
        shown.subList(shown.indexOf('DJ One') + 1, shown.size()).any { it in ['General Rotation', 'Rock Block'] }

        and: 'the song history reached the API'
        api.calls.findAll { it.path == 'feedback' }*.body*.title.containsAll(['Morning Show', 'Next Song', 'Requested Song'])

        and: 'the live show was archived, one file, handed to the API when it closed'
        Map recording = api.calls.find { it.path == 'recording' }
        recording && recording.body.user == 'dj1'
        Path show = Path.of(recording.body.path as String)
        show.startsWith(recordings.resolve('dj1')) && show.fileName.toString() ==~ /live_\d{8}-\d{6}\.mp3/
        Files.list(recordings.resolve('dj1')).withCloseable { it.count() } == 1
        Media.decodedSeconds(show, 1152) > 5 && Media.decodedSeconds(show, 1152) < 10

        and: 'health and HLS'
        metrics.contains('groovecast_clock_duty_ratio')
        hlsFiles*.fileName*.toString().contains('stream.m3u8')
    }
}
