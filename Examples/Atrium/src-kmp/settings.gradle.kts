rootProject.name = "atrium"

include(":theming", ":home", ":app")
