settings.audio.channels = 0
output.dummy(sine(440))
