fun flip() = (0..2).random()
