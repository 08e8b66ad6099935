// A stand-in for Compose's Color, with the two factories real code calls:
// Color(0xFF1A1A1A) takes a Long, Color(0x1F1A1A1A) an Int.
package androidx.compose.ui.graphics

class Color internal constructor(val argb: Long, @Suppress("UNUSED_PARAMETER") stub: Unit)

fun Color(color: Long): Color = Color(color and 0xFFFFFFFFL, Unit)

fun Color(color: Int): Color = Color(color.toLong() and 0xFFFFFFFFL, Unit)
