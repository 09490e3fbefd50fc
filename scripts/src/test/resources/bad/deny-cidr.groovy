def radio = sine(440)
output.harbor(mp3(), radio, mount: 'radio', deny: [addresses: ['203.0.113.7', '10.0.0.0/33']])
