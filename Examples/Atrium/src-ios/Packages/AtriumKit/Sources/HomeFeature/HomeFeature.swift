public struct HomeState: Equatable {
  public var greeting = ""
  public var visits = 0
  public init() {}
}

public enum HomeAction {
  case appeared
}

public enum HomeEffectPayload {}

// sourcery: AutoMockable
public protocol HomeShell: AnyObject {
  func render(_ state: HomeState)
}

public func reduce(_ state: HomeState, _ action: HomeAction) -> HomeState {
  var next = state
  switch action {
  case .appeared:
    next.greeting = "Welcome back"
    next.visits += 1
  }
  return next
}
