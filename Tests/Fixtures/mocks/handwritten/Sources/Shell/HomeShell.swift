public protocol HomeShell {
  func show(_ state: HomeState)
}
