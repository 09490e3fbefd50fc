def s = sine(440, amplitude: 0.5
output.dummy(s)
