rootProject.name = "courier"
include(":shared")
include(":apple-umbrella")
