def music = sine(440)
def s = fallback(trackSensitive: false, "music", music)
output.dummy(s)
