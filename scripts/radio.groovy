// The default station: a rotation of two tones and a jingle, written to a WAV file as it plays.
// Run it with `groovecast run scripts/radio.groovy`; stop it with Ctrl-C (the file is finalised).
settings.frame.duration = 0.02

def low = sine(440, amplitude: 0.2).tracks(duration: 4, id: 'low')
def high = sine(660, amplitude: 0.2).tracks(duration: 4, id: 'high')
def jingle = add(sine(880, amplitude: 0.1), sine(1320, amplitude: 0.1)).tracks(duration: 1, id: 'jingle')

def radio = rotate(weights: [1, 1, 1], low, jingle, high, onSelect: { src -> log.info("now playing ${src}") })

output.file(wav(), env('RADIO_OUT', 'radio.wav'), radio, id: 'radio')

// Health, measured: the clock's duty cycle (share of each frame spent working) and its lag.
thread.run(delay: 30, every: 30) { -> log.info("clock ${radio.clock.id}: duty ${radio.clock.duty}, lag ${radio.clock.lag} s") }
