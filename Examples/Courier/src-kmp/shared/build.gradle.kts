plugins { kotlin("multiplatform") }
kotlin {
    jvmToolchain(25)
    jvm()
}
