output.dummy(sine(440))
if (env('GROOVECAST_UNSET_MODE') != 'live') throw new Error('bad')
