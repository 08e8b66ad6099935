fun total() = 2
