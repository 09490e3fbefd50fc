File1=Müller.mp3
Title1=Müller - Grüße
