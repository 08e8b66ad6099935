/// The logic half of the upgrade sheet: the view calls it and renders its state.
public final class UpgradeShell {
  public private(set) var viewState = UpgradeViewState.initial

  public init() {}

  /// Selecting a plan marks its card; selecting it again clears the choice.
  public func selectPlan(_ plan: Plan) {
    viewState.selected = viewState.selected == plan ? nil : plan
  }
}
