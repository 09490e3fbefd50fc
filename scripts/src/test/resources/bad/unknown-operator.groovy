def s = sinus(440)
output.dummy(s)
