def s = sine(440, amplitud: 0.5)
output.dummy(s)
