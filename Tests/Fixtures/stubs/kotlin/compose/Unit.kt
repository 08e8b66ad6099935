// A stand-in for Compose's units: Dp for the scales, TextUnit for type.
package androidx.compose.ui.unit

class Dp(val value: Float)

val Int.dp: Dp get() = Dp(this.toFloat())
val Double.dp: Dp get() = Dp(this.toFloat())

class TextUnit(val value: Float, val unit: String)

val Int.sp: TextUnit get() = TextUnit(this.toFloat(), "sp")
val Double.sp: TextUnit get() = TextUnit(this.toFloat(), "sp")
val Int.em: TextUnit get() = TextUnit(this.toFloat(), "em")
val Double.em: TextUnit get() = TextUnit(this.toFloat(), "em")
