import groovy.transform.Field

// saved by an editor that writes a byte-order mark
@Field Closure say = { String text -> log.info(text) }
@Field def music = sine(440)

def play() { output.dummy(music) }
say("on air")
play()
