// A stand-in for Compose's TextStyle with the arguments the type scale passes.
package androidx.compose.ui.text

import androidx.compose.ui.text.font.FontFamily
import androidx.compose.ui.text.font.FontWeight
import androidx.compose.ui.unit.TextUnit

class TextStyle(
  val fontFamily: FontFamily? = null,
  val fontWeight: FontWeight? = null,
  val fontSize: TextUnit? = null,
  val lineHeight: TextUnit? = null,
  val letterSpacing: TextUnit? = null
)
