// A stand-in for duet-services' `theming` artifact: the value types the
// generated Kotlin palette is written in.
package dev.modaal.duet.services.theming

class ColorToken private constructor(val light: Long, val dark: Long) {
  companion object {
    fun auto(light: Long, dark: Long): ColorToken = ColorToken(light, dark)

    fun fixed(value: Long): ColorToken = ColorToken(value, value)
  }
}

enum class FontFamilyToken { Serif, Sans, Mono }

class FontToken(
  val family: FontFamilyToken,
  val weight: Int,
  val sizeSp: Double,
  val lineHeightSp: Double,
  val trackingEm: Double,
  val opticalSize: Double?,
  val softness: Double?,
  val width: Double?
)

class GradientToken private constructor(val light: List<Long>, val dark: List<Long>) {
  companion object {
    fun auto(light: List<Long>, dark: List<Long>): GradientToken = GradientToken(light, dark)

    fun fixed(stops: List<Long>): GradientToken = GradientToken(stops, stops)
  }
}
