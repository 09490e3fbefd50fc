// DecodeMemory's station: plays the files the benchmark hands out, one after the other.
// org.groovecast.bench.DecodeMemory.next() returns the next path (null after the last one) and
// holds the clock while the benchmark samples the heap and the RSS (see DecodeMemory.java).
def files = request.dynamic(prefetch: 1) { -> org.groovecast.bench.DecodeMemory.next() }
output.dummy(mksafe(files))
