/// What the home screen shows: semantic values only, so a theme or a token
/// binding never changes the state, only the view that reads it.
public struct HomeViewState: Equatable, Sendable {
  public enum Entitlement: Equatable, Sendable {
    case free
    case plus
  }

  public var greeting: String
  public var entitlement: Entitlement
  public var insightCount: Int

  public init(greeting: String, entitlement: Entitlement, insightCount: Int) {
    self.greeting = greeting
    self.entitlement = entitlement
    self.insightCount = insightCount
  }

  /// The plan cards are locked for a free entitlement.
  public var showsLockedPlans: Bool { entitlement == .free }
}
