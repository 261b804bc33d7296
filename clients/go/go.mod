module siwamock

go 1.19
