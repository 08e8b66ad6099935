plugins {
  kotlin("multiplatform")
}

// The generated token vocabularies and value table live in this module.
kotlin {
  jvm()
}
