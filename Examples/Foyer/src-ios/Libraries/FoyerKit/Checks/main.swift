// A dependency-free check of the shells, compiled with them by the root
import Foundation
// manifest's `foyer-shells` lane (swiftc runs on any machine with the toolchain).
var failures = 0

func check(_ condition: Bool, _ what: String) {
  if condition {
    print("✓ \(what)")
  } else {
    print("✗ \(what)")
    failures += 1
  }
}

let shell = UpgradeShell()
check(shell.viewState.cards.map(\.plan) == [.yearly, .monthly], "the sheet offers yearly first, then monthly")
shell.selectPlan(.monthly)
check(shell.viewState.selected == .monthly, "selecting a plan marks it")
shell.selectPlan(.monthly)
check(shell.viewState.selected == nil, "selecting it again clears the choice")

if failures > 0 {
  print("FAILED: \(failures) check(s)")
  exit(1)
}
print("all shell checks passed")
