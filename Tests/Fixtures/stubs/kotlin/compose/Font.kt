// A stand-in for Compose's generic font families and numeric font weight.
package androidx.compose.ui.text.font

class FontFamily private constructor(val name: String) {
  companion object {
    val Default = FontFamily("default")
    val SansSerif = FontFamily("sans-serif")
    val Serif = FontFamily("serif")
    val Monospace = FontFamily("monospace")
  }
}

class FontWeight(val weight: Int)
