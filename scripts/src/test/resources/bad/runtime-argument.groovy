def a = sine(440)

def s = rotate(weights: [1, 2, 3], a, sine(660))
output.dummy(s)
