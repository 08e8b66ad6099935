package dev.modaal.foyer.home

/** A dependency-free check run by the root manifest's `foyer-kotlin` lane. */
fun main() {
  val locked = HomeState()
  check(locked.insightsLocked) { "a free plan locks the Insights card" }
  val unlocked = reduce(locked, Entitlement.Premium(renewsOn = "2027-01-01"))
  check(!unlocked.insightsLocked) { "a premium plan unlocks it" }
  println("all home checks passed")
}
