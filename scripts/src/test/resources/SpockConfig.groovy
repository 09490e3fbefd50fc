import java.time.Duration

// No spec feature takes a minute (the longest, ReloadKeepsSpec's, about 30 s): one that hangs is
// interrupted after four, with every thread's stack printed so that the hang can be read, instead of
// holding the build until CI's own limit kills it with nothing to read.
timeout {
    globalTimeout Duration.ofMinutes(4)
    applyGlobalTimeoutToFixtures true
    printThreadDumpsOnInterruptAttempts true
    maxInterruptAttemptsWithThreadDumps 3
}
