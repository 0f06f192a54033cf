[Game "oware"]
[Termination "resign"]
; a comment
1. C d 0-1

[Game "oware:match=bo3"]
[Round "1"]
1... a *
