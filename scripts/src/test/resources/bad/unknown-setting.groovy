settings.frame.durration = 0.04
output.dummy(sine())
