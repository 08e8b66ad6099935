rootProject.name = "droid"
include(":app")
