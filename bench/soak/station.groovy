// The soak station (bench/soak/run.sh): the default station's shape (scripts/radio.groovy: a rotation of
// tones served by the engine as MP3) with a live DJ mount in front of it, and every output a long-running
// station has: the harbor mount, an Icecast server, HLS, an RTMP relay, metrics and the telnet control.
// run.sh starts it on ports it chose (SOAK_* below) and reloads it every two minutes, switching the line
// `def lowFreq = ...` between two frequencies first, so that every reload builds a graph that differs.
settings.frame.duration = 0.02

int harborPort = env('SOAK_HARBOR_PORT', '8000').toInteger()
def lowFreq = 440

def low = sine(lowFreq, amplitude: 0.2).tracks(duration: 4, id: 'low')
def high = sine(660, amplitude: 0.2).tracks(duration: 4, id: 'high')
def jingle = add(sine(880, amplitude: 0.1), sine(1320, amplitude: 0.1)).tracks(duration: 1, id: 'jingle')

def music = rotate(weights: [1, 1, 1], low, jingle, high, id: 'music', onSelect: { src ->
    src.insertMetadata(title: "${src.id} tone".toString(), artist: 'Groovecast')
    // A callback registered at every selection, released by rotate at the next one: the soak's
    // registration count stays flat only if that release works for hours.
    src.onPosition(0.5, remaining: true) { m -> log.debug("${src.id}: half a second left") }
    log.info("now playing ${src}")
})

def live = input.harbor('live', port: harborPort, password: env('SOAK_DJ_PASSWORD', 'hackme'), id: 'live')
def radio = fallback(trackSensitive: false, live, music, id: 'radio')

output.harbor(mp3(bitrate: 128), radio, mount: 'radio', port: harborPort, name: 'Groovecast Soak', id: 'radio-out')
output.icecast(mp3(bitrate: 128), radio, host: '127.0.0.1', port: env('SOAK_ICECAST_PORT', '8001').toInteger(),
        password: env('SOAK_ICECAST_PASSWORD', 'hackme'), mount: 'soak', name: 'Groovecast Soak', id: 'icecast-out')
output.file.hls(env('SOAK_HLS_DIR', '/tmp/groovecast-soak-hls'), [lo: aac(bitrate: 64)], radio, id: 'hls-out')

rtmp.server(port: env('SOAK_RTMP_PORT', '1935').toInteger(), bind: '127.0.0.1')
metrics.expose(port: harborPort)
server.telnet(port: env('SOAK_TELNET_PORT', '1234').toInteger())

thread.run(delay: 30, every: 30) { -> log.info("clock ${radio.clock.id}: duty ${radio.clock.duty}, lag ${radio.clock.lag} s") }
