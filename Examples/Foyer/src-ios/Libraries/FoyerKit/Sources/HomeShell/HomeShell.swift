/// The boundary between the home feature and its platform view: the reducer
/// renders a state through it and hears the user's taps back.
public protocol HomeShell: AnyObject {
  func render(_ state: HomeViewState)
  func showPlans()
}

/// What the user can do on the home screen.
public enum HomeAction: Equatable, Sendable {
  case appeared
  case planTapped
  case insightTapped(index: Int)
}
