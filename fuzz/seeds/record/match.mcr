[Game "oware:match=bo3"]
[Event "mancala play"]
[Date "2026.11.29"]
[Round "1"]
[South "human"]
[North "human"]
[Result "0-1"]
[Termination "resign"]
[Detail "South resigned"]
[Match "South 0, North 1 (first to 2 wins)"]

0-1

[Game "oware:match=bo3"]
[Event "mancala play"]
[Date "2026.11.29"]
[Round "2"]
[South "human"]
[North "human"]
[Start "4,4,4,4,4,4/4,4,4,4,4,4 N cap=0,0"]
[Result "1-0"]
[Termination "resign"]
[Detail "North resigned"]
[Match "South 1, North 1 (first to 2 wins)"]

1-0

[Game "oware:match=bo3"]
[Event "mancala play"]
[Date "2026.11.29"]
[Round "3"]
[South "human"]
[North "human"]
[Result "*"]
[Match "South 1, North 1 (first to 2 wins)"]

*
