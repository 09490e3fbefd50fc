File1=café.mp3
Title1=Café
