package dev.atrium.home

data class HomeState(val greeting: String = "", val visits: Int = 0)

sealed class HomeAction {
  object Appeared : HomeAction()
}

sealed class HomeEffectPayload

fun reduce(state: HomeState, action: HomeAction): HomeState = when (action) {
  HomeAction.Appeared -> state.copy(greeting = "Welcome back", visits = state.visits + 1)
}
