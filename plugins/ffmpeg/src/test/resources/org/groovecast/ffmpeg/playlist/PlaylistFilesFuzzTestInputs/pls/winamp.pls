[playlist]
NumberOfEntries=3
File1=http://stream.example:8000/live
Title1=Live Stream
Length1=-1
File2=music/two.mp3
Title2=Two
Length2=200
File3=/abs/three.ogg
Version=2
