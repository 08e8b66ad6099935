fun home(): String = "Home"
