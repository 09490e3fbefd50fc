#!/usr/bin/env python3
"""What a recording of the stream plays, by ear: each track of the bench is a tone of its own, so
the strongest of the known tones in each half second says what was on air.

    tones.py RECORDING NAME=FREQ...

prints one line per half second: the seconds from the start and the name of the loudest of the
tones (Goertzel power at FREQ), or "-" when the window is near silent."""
import math
import struct
import subprocess
import sys

RATE = 8000
WINDOW = RATE // 2

path = sys.argv[1]
names = [a.split("=", 1)[0] for a in sys.argv[2:]]
freqs = [float(a.split("=", 1)[1]) for a in sys.argv[2:]]
pcm = subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-i", path, "-ac", "1", "-ar", str(RATE),
                      "-f", "s16le", "-"], capture_output=True).stdout
samples = struct.unpack("<%dh" % (len(pcm) // 2), pcm[:len(pcm) // 2 * 2])
coefficients = [2 * math.cos(2 * math.pi * f / RATE) for f in freqs]
for start in range(0, len(samples) - WINDOW + 1, WINDOW):
    window = samples[start:start + WINDOW]
    energy = sum(x * x for x in window) / WINDOW
    best, best_power = "-", 0.0
    if energy > 1000:  # about -50 dBFS: below that, silence
        for name, c in zip(names, coefficients):
            s1 = s2 = 0.0
            for x in window:
                s1, s2 = x + c * s1 - s2, s1
            power = s1 * s1 + s2 * s2 - c * s1 * s2
            if power > best_power:
                best, best_power = name, power
    print("%.1f %s" % (start / RATE, best))
