[Game "oware"]
[Start "1,0,0,0,0,0/1,0,0,0,0,0 S cap=23,23"]
[Result "1/2-1/2"]

1. A a 2. B b 3. C c 4. D d {after E e the game goes on} 5. E e
6.F f 1/2-1/2
