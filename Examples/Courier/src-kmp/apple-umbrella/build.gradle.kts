plugins { kotlin("multiplatform") }
kotlin {
    jvmToolchain(25)
    iosArm64 { binaries.framework("Courier") }
}
