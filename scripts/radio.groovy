// The default station: a rotation of two tones and a jingle, served by the engine itself as MP3 at
// http://localhost:8000/radio (play it with any player: `ffplay http://localhost:8000/radio`).
// Run it with `groovecast run scripts/radio.groovy`; stop it with Ctrl-C.
settings.frame.duration = 0.02

def low = sine(440, amplitude: 0.2).tracks(duration: 4, id: 'low')
def high = sine(660, amplitude: 0.2).tracks(duration: 4, id: 'high')
def jingle = add(sine(880, amplitude: 0.1), sine(1320, amplitude: 0.1)).tracks(duration: 1, id: 'jingle')

def radio = rotate(weights: [1, 1, 1], low, jingle, high, onSelect: { src ->
    src.insertMetadata(title: "${src.id} tone".toString(), artist: 'Groovecast')   // listeners see it as the title
    log.info("now playing ${src}")
})

output.harbor(mp3(bitrate: 128), radio, mount: 'radio', port: env('RADIO_PORT', '8000').toInteger(),
        name: 'Groovecast Radio', id: 'radio')

// An archive of what went out, when RADIO_OUT names a WAV file.
String archive = env('RADIO_OUT', '')
if (archive) output.file(wav(), archive, radio)

// Its face: the status page at http://localhost:8000/ (listeners, now playing, the clock's duty and
// lag), /status-json.xsl as Icecast has it, /api/nowplaying; the buttons work once STATUS_PASSWORD is set.
String statusPassword = env('STATUS_PASSWORD', '')
int port = env('RADIO_PORT', '8000').toInteger()
if (statusPassword) status.page(port: port, auth: [user: 'admin', password: statusPassword])
else status.page(port: port)

// Health, measured: the clock's duty cycle (share of each frame spent working) and its lag.
thread.run(delay: 30, every: 30) { -> log.info("clock ${radio.clock.id}: duty ${radio.clock.duty}, lag ${radio.clock.lag} s") }
