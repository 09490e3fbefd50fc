// A station in the shape AzuraCast generates for Liquidsoap (ConfigWriter.php and azuracast.liq),
// written for Groovecast: weighted and scheduled playlists, a once-an-hour jingle, an AutoDJ asking
// the API for its next song, listener requests, a live DJ logged in through the API, crossfades,
// loudness, an error file as the last resort, and the outputs AzuraCast sets up (Icecast MP3 and AAC,
// a self-served mount, HLS), with an archive of every live show handed to the API.
//
// Everything a deployment sets comes from the environment (AzuraCast writes these into the script):
//   STATION_DIR      the station's directory (media/, recordings/, hls/ by default under it)
//   MEDIA            the station's media directory; PLAYLISTS the directory of its .m3u files
//   AZURACAST_API_URL, AZURACAST_API_KEY    the API and its key (also the key of POST /telnet)
//   ICECAST_HOST, ICECAST_PORT, ICECAST_PASSWORD   the Icecast server the station feeds
//   RADIO_PORT (8000) the harbor: /radio for listeners, /live for DJs, /telnet, /metrics
//   RECORDINGS, HLS_DIR, ERROR_FILE, STATION_TZ
include('lib/azuracast.groovy')

settings.harbor.bind = env('BIND', '127.0.0.1')
settings.time.zone = env('STATION_TZ', 'UTC')

String base = env('STATION_DIR', '/var/azuracast/stations/radio')
String media = env('MEDIA', "${base}/media".toString())
String playlists = env('PLAYLISTS', media)
int port = env('RADIO_PORT', '8000').toInteger()
String apiKey = env('AZURACAST_API_KEY', 'change-me')

// media:path as AzuraCast's local storage resolves it; playlist lines are annotate:...:media:... URIs.
protocol.add('media') { arg -> "${media}/${arg}".toString() }

// Standard playlists, by weight; a scheduled one in its window; a jingle once an hour.
def general = playlist("${playlists}/general.m3u".toString(), id: 'playlist_general', mode: 'normal', reloadMode: 'watch')
def rock = playlist("${playlists}/rock.m3u".toString(), id: 'playlist_rock', mode: 'normal', reloadMode: 'watch')
def morning = playlist("${playlists}/morning.m3u".toString(), id: 'playlist_morning', mode: 'normal', reloadMode: 'watch')
def jingles = playlist("${playlists}/jingles.m3u".toString(), id: 'playlist_jingles', mode: 'normal')

def radio = random(id: 'standard_playlists', weights: [3, 1], general, rock)
radio = switchOn(id: 'schedule_switch', trackSensitive: true, [
        [time.between(env('MORNING_FROM', '6h'), env('MORNING_TO', '9h')), morning],
        [time.at('0m0s'), jingles],
        [true, radio]])

// Listener requests, pushed by AzuraCast over control (`requests.push annotate:...:media:...`).
def requests = request.queue(id: 'requests', timeout: 20)
radio = fallback(id: 'requests_fallback', trackSensitive: true, requests, radio)

// The AutoDJ: the API picks the next song (an annotate:...:media:... URI), or has none now.
def nextSong = request.dynamic(id: 'next_song', timeout: 20, retryDelay: 3) { ->
    String uri = api('nextsong', [:])
    (uri == 'false' || uri.trim() == '') ? null : uri.trim()
}
radio = fallback(id: 'autodj_fallback', trackSensitive: true, nextSong, radio)

server.register('radio.skip', description: 'ends the AutoDJ track playing') { arg ->
    radio.skip()
    'Done!'
}

// Loudness and crossfades, as AzuraCast's "normalize and crossfade" options do.
radio = amplify(1.0, radio, override: 'liq_amplify')
radio = normalize(radio, target: -16)
radio = crossfade(radio, duration: 1, fadeIn: 1, fadeOut: 1)

// The live DJ, logged in through the API; its show is recorded, one file per show.
def dj = new java.util.concurrent.atomic.AtomicReference<String>('')
def live = input.harbor('live', id: 'input_streamer', port: port, buffer: 1, max: 10,
        auth: { String user, String password -> djAuth(user, password) },
        onConnect: { Map client ->
            dj.set(client.username as String)
            api('djon', [user: client.username])
        },
        onDisconnect: { -> api('djoff', [user: dj.get()]) })
live = metadata.map(live, update: true) { Map m -> liveMetadata(m) }

String recordings = env('RECORDINGS', "${base}/recordings".toString())
output.file(mp3(bitrate: 128), { -> "${recordings}/${dj.get() ?: 'dj'}/live_%Y%m%d-%H%M%S.mp3".toString() }, live,
        fallible: true, id: 'live_recording',
        onClose: { String path -> api('recording', [path: path, user: dj.get()]) })

radio = fallback(id: 'live_fallback', trackSensitive: false, replayMetadata: true, transitionLength: 1,
        transitions: [{ from, to -> liveTransition(from, to) }, { from, to -> liveTransition(from, to) }],
        live, radio)

// The last resort: AzuraCast's error jingle, when nothing else can play.
String errorFile = env('ERROR_FILE', '')
def error = errorFile ? single(errorFile, id: 'error_jingle') : sine(220, amplitude: 0.1, id: 'error_jingle')
error = metadata.map(error) { m -> [title: 'Station offline', is_error_file: 'true'] }
radio = fallback(id: 'safe_fallback', trackSensitive: false, radio, error)

// What went on air, back to the API (song history, "now playing").
radio.onMetadata { Map m ->
    if (m.is_error_file != 'true') {
        Map feedback = [title: m.title, artist: m.artist]
        thread.run(fast: false) { -> api('feedback', feedback) }
    }
}

// The outputs AzuraCast sets up: Icecast (MP3 and AAC), the station's own mount, HLS.
String icecastHost = env('ICECAST_HOST', 'localhost')
int icecastPort = env('ICECAST_PORT', '8010').toInteger()
String icecastPassword = env('ICECAST_PASSWORD', 'hackme')
output.icecast(mp3(bitrate: 128), radio, id: 'local_1', host: icecastHost, port: icecastPort, password: icecastPassword,
        mount: '/radio.mp3', name: 'Groovecast AzuraCast-style', description: 'An AzuraCast station, moved over',
        genre: 'Various', url: 'https://example.org', public: false)
output.icecast(aac(bitrate: 64), radio, id: 'local_2', host: icecastHost, port: icecastPort, password: icecastPassword,
        mount: '/radio.aac', name: 'Groovecast AzuraCast-style (AAC)', public: false)
output.harbor(mp3(bitrate: 128), radio, id: 'harbor_radio', mount: 'radio', port: port, name: 'Groovecast AzuraCast-style')
output.file.hls(env('HLS_DIR', "${base}/hls".toString()), [aac_lo: aac(bitrate: 64)], radio,
        id: 'hls', segmentDuration: 2, segments: 5)

// AzuraCast's control: its commands over POST /telnet with the API key, and the health metrics.
server.harbor(port: port, key: apiKey)
metrics.expose(port: port)
