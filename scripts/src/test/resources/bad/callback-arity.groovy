def music = sine(440).tracks(duration: 2)
def radio = fallback(music, sine(660),
        onSelect: { -> log.info('on air') })
output.dummy(radio)
