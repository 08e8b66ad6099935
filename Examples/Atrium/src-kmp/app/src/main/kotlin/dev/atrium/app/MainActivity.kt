package dev.atrium.app

import dev.atrium.home.HomeState

class MainActivity {
  val state = HomeState()
}
