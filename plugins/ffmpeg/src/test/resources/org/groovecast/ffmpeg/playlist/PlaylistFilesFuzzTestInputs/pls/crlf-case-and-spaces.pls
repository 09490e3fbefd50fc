[Playlist]
file1 = one.mp3
FILE2=two.mp3
File=nothing
Filename3=x.mp3
File10=ten.mp3
