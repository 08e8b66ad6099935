package dev.atrium.theming

import kotlin.test.Test
import kotlin.test.assertEquals

class PaletteTest {
  @Test fun everyColourHasAValue() {
    assertEquals(SemanticColor.values().size, SemanticColor.values().map(MainPalette::color).size)
  }
}
