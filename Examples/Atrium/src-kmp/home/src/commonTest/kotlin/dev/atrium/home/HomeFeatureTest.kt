package dev.atrium.home

import kotlin.test.Test
import kotlin.test.assertEquals

class HomeFeatureTest {
  @Test fun appearingCountsAVisit() {
    assertEquals(1, reduce(HomeState(), HomeAction.Appeared).visits)
  }
}
