def s = sine(440)
def t = once(s)
output.dummy(t)
