plugins {
  id("com.android.application")
  kotlin("android")
}
