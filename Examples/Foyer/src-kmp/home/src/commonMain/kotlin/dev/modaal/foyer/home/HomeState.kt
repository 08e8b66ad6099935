package dev.modaal.foyer.home

/** What the home screen's Insights card knows about the user's plan. */
sealed class Entitlement {
  object Free : Entitlement()

  data class Premium(val renewsOn: String) : Entitlement()
}

/** The home screen's state: the reducer keeps semantic values, the view picks tokens. */
data class HomeState(val entitlement: Entitlement = Entitlement.Free) {
  val insightsLocked: Boolean
    get() = entitlement is Entitlement.Free
}

/** The one action that changes the card: the plan changed. */
fun reduce(state: HomeState, entitlement: Entitlement): HomeState = state.copy(entitlement = entitlement)
