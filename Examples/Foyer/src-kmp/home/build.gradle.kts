plugins {
  kotlin("multiplatform")
}

kotlin {
  jvm()
}
