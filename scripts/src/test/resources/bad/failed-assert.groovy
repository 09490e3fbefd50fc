// the station needs its API key
assert env('GROOVECAST_UNSET_API_KEY')
output.dummy(sine(440))
