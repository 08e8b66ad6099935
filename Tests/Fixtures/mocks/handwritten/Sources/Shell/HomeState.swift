public struct HomeState: Equatable {
  public var title: String
}
