func home() -> String { "Home" }
