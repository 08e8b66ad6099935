val a = 1
