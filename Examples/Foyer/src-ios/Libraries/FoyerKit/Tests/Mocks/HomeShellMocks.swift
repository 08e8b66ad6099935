// mock-templates:fingerprint v1
// bundle: none
// config: sha256:b607d4b911dda08722fd21414f58c3711457a291ec50caadf424458058df3af5 generator=none
// input: sha256:c5ca04df6dc102206f8ffaac816df6dae9cc990b4eb8a07d9a11131bf2e55a4b src-ios/Libraries/FoyerKit/Sources/HomeShell/HomeShell.swift
// input: sha256:616e3c251675b64b81f8f40374b713e5d6a9f48820dce2ce050c105946989cb0 src-ios/Libraries/FoyerKit/Sources/HomeShell/HomeViewState.swift
// body: sha256:d64fdce6fd700cf1c0602e7a1457882b62b76572c208925fce137c646344f906
// mock-templates:end
// Generated mock for HomeShell; `duet mocks` keeps its fingerprint block current.

final class HomeShellMock: HomeShell {
  private(set) var rendered: [HomeViewState] = []
  private(set) var showPlansCount = 0

  func render(_ state: HomeViewState) {
    rendered.append(state)
  }

  func showPlans() {
    showPlansCount += 1
  }
}
