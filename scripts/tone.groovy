settings.frame.duration = 0.02
def a = sine(440, amplitude: 0.2).tracks(duration: 2)
def b = sine(660, amplitude: 0.2).tracks(duration: 2)
def s = rotate(weights: [1, 1], a, b)
s.onTrack { m -> log.info("new track") }
output.file(wav(), env('OUT', '/tmp/tone.wav'), s)
