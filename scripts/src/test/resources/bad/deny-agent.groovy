def radio = sine(440)
output.harbor(mp3(), radio, mount: 'radio',
        deny: [agents: ['*bot*', '/(curl/']])
