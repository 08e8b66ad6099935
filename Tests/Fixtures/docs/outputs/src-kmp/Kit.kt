fun greeting() = "hello"
