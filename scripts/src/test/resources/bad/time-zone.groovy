output.dummy(sine(440))
settings.time.zone = 'Europe/Pariss'
