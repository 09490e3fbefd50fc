[playlist]
File1=
File2=   
NumberOfEntries=x
