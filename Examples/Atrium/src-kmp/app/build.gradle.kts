plugins {
  id("com.android.application")
  kotlin("android")
}

dependencies {
  implementation(project(":home"))
}
