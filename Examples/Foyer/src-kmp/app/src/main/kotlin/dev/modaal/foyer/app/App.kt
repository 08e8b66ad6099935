package dev.modaal.foyer.app

/** The Android app module: Compose screens over the shared modules (not built by the example's lanes). */
object App
