/// A plan the upgrade sheet offers.
public enum Plan: String, CaseIterable, Sendable {
  case monthly, yearly
}

/// One card of the upgrade sheet, as the view renders it.
public struct PlanCard: Equatable, Sendable {
  public var plan: Plan
  public var name: String
  public var price: String
}

/// What the upgrade sheet shows: the cards and which one is selected.
public struct UpgradeViewState: Equatable, Sendable {
  public var cards: [PlanCard]
  public var selected: Plan?

  public init(cards: [PlanCard], selected: Plan? = nil) {
    self.cards = cards
    self.selected = selected
  }

  /// The sheet as it first opens: both plans, yearly first, nothing selected.
  public static let initial = UpgradeViewState(cards: [
    PlanCard(plan: .yearly, name: "Yearly", price: "€39.99"),
    PlanCard(plan: .monthly, name: "Monthly", price: "€4.99"),
  ])
}
