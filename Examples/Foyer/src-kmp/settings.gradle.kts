rootProject.name = "foyer"

include(":app", ":home", ":theming")
