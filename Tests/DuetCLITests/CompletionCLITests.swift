@testable import DuetFuzzSupport
import Foundation
import Testing

@Suite("duet completion bash|zsh|fish (the binary)")
struct CompletionCLITests {
  static let manifest = """
    version: 1
    lanes:
      - {name: design-tokens, sh: "true"}
      - {name: kotlin-home, sh: "true", needs: [design-tokens]}
      - {name: kotlin-theming, sh: "true"}
    """

  /// The path of the shell `name`; missing, the test fails with the command that installs it.
  func program(_ name: String) -> String? {
    if let path = TestTools.find(name) { return path }
    Issue.record(Comment(rawValue: TestTools.missing(name, for: "this completion test")))
    return nil
  }

  /// What bash's completion offers for `words` (the last one being completed),
  /// with the generated script sourced and `COMP_WORDS[0]` the binary under test.
  func bashCompletes(_ words: [String], in tree: FixtureTree) throws -> [String] {
    let quoted = ([duetBinary.path] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    let driver = """
      source ./duet.bash
      COMP_WORDS=(\(quoted))
      COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
      _duet
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    try tree.write("driver.bash", driver)
    let result = try shell("bash driver.bash", in: tree.url)
    #expect(result.status == 0, "\(result.output)")
    return result.output.split(separator: "\n").map(String.init)
  }

  /// The bash script parses (`bash -n`) and completes lane names from the
  /// manifest for `verify --lane`, `logs` and `history --lane`, commands, options and fixed words.
  @Test func bashCompletesLaneNames() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let script = try tree.duet("completion", "bash")
    #expect(script.status == 0)
    try tree.write("duet.bash", script.stdout)
    let parse = try shell("bash -n duet.bash", in: tree.url)
    #expect(parse.status == 0, "\(parse.output)")

    #expect(try bashCompletes(["verify", "--lane", ""], in: tree) == ["design-tokens", "kotlin-home", "kotlin-theming"])
    #expect(try bashCompletes(["verify", "--lane", "kot"], in: tree) == ["kotlin-home", "kotlin-theming"])
    #expect(try bashCompletes(["verify", "--lane", "=", "des"], in: tree) == ["design-tokens"])
    #expect(try bashCompletes(["logs", "kotlin-t"], in: tree) == ["kotlin-theming"])
    #expect(try bashCompletes(["logs", "kotlin-home", ""], in: tree) == [])
    #expect(try bashCompletes(["history", "--lane", "d"], in: tree) == ["design-tokens"])
    #expect(try bashCompletes(["history", ""], in: tree) == ["prune", "merge", "pull"])
    #expect(try bashCompletes(["ver"], in: tree) == ["verify"])
    #expect(try bashCompletes(["verify", "--fail"], in: tree) == ["--fail-fast", "--failed", "--failed-tests"])
    #expect(try bashCompletes(["graph", "--format", ""], in: tree) == ["dot", "mermaid"])
    #expect(try bashCompletes(["help", "comp"], in: tree) == ["completion"])
    // Issue 53, item 5: --color, taken by every command, is offered with its three words.
    #expect(try bashCompletes(["verify", "--col"], in: tree) == ["--color"])
    #expect(try bashCompletes(["lanes", "--color", ""], in: tree) == ["auto", "always", "never"])

    // --root on the command line picks the tree the lanes come from.
    let elsewhere = try FixtureTree()
    try tree.write("sub/.keep", "")
    let fromOutside = try bashCompletesElsewhere(["verify", "--root", tree.url.path, "--lane", "kotlin-h"], script: script.stdout, in: elsewhere)
    #expect(fromOutside == ["kotlin-home"])
  }

  func bashCompletesElsewhere(_ words: [String], script: String, in folder: FixtureTree) throws -> [String] {
    try folder.write("duet.bash", script)
    return try bashCompletes(words, in: folder)
  }

  /// A tree without a manifest completes no lanes and prints no error into the prompt.
  @Test func noManifestNoNoise() throws {
    let tree = try FixtureTree()
    let script = try tree.duet("completion", "bash")
    try tree.write("duet.bash", script.stdout)
    #expect(try bashCompletes(["logs", ""], in: tree) == [])
    let helper = try tree.duet("__complete", "lanes")
    #expect(helper.stdout.isEmpty && helper.stderr.isEmpty)
  }

  /// The zsh and fish scripts parse (`zsh -n`, `fish --no-execute`), and fish
  /// completes lane names (`complete -C`); a missing shell fails the test.
  @Test func zshAndFishParse() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let zsh = try tree.duet("completion", "zsh")
    #expect(zsh.status == 0)
    #expect(zsh.stdout.hasPrefix("#compdef duet\n"))
    #expect(zsh.stdout.contains("'*--lane=[run only this lane, or the lanes a glob such as kotlin-* matches, and what they need (repeatable)]:NAME:_duet_lanes'"))
    let fish = try tree.duet("completion", "fish")
    #expect(fish.status == 0)
    #expect(fish.stdout.contains("complete -c duet -n '__fish_seen_subcommand_from logs' -x -a '(__duet_lanes)'"))
    // Issue 53, item 5: --color in both, with its three words.
    #expect(zsh.stdout.contains("'--color=[auto (colour on a terminal unless NO_COLOR is set), always or never]:WHEN:(auto always never)'"),
            "\(zsh.stdout.split(separator: "\n").filter { $0.contains("--color") }.prefix(2))")
    #expect(fish.stdout.contains("complete -c duet -n '__fish_seen_subcommand_from verify' -l color -x -a 'auto always never'"),
            "\(fish.stdout.split(separator: "\n").filter { $0.contains("color") }.prefix(2))")
    try tree.write("_duet", zsh.stdout)
    try tree.write("duet.fish", fish.stdout)
    if let zshPath = program("zsh") {
      let parse = try shell("\(zshPath) -n _duet", in: tree.url)
      #expect(parse.status == 0, "\(parse.output)")
    }
    if let fishPath = program("fish") {
      let parse = try shell("\(fishPath) --no-execute duet.fish", in: tree.url)
      #expect(parse.status == 0, "\(parse.output)")
      try FileManager.default.createDirectory(at: tree.url.appendingPathComponent("bin"), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(atPath: tree.url.appendingPathComponent("bin/duet").path, withDestinationPath: duetBinary.path)
      let lanes = try shell("PATH=\"$PWD/bin:$PATH\" \(fishPath) --no-config -c 'source duet.fish; complete -C \"duet logs kotlin-\"; complete -C \"duet history --lane d\"'", in: tree.url)
      #expect(lanes.output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } == ["kotlin-home", "kotlin-theming", "design-tokens"], "\(lanes.output)")
    }
  }

  /// Drives zsh's completion system in a pseudo-terminal (`zpty`), with the
  /// generated `_duet` on `fpath`, and returns the matches offered for `line`.
  static let zshCapture = #"""
    zmodload zsh/zpty
    zpty z zsh -f -i
    zpty -w z 'PS1=""; fpath=($PWD $fpath); autoload -U compinit; compinit -u -D'
    zpty -w z 'compadd () { builtin compadd -O __hits "$@"; print -l -- "HIT:"${^__hits}; builtin compadd "$@" }'
    zpty -w z 'bindkey "^I" complete-word'
    zpty -n -w z "$1"$'\t'
    out=""
    # Read until matches have arrived and the terminal has gone quiet (at most 30 s: a loaded CI starts zsh slowly).
    for i in {1..150}; do
      sleep 0.2
      got=0
      while zpty -rt z chunk; do out+=$chunk; got=1; done
      [[ $out == *HIT:* && $got == 0 ]] && break
    done
    print -r -- "$out" | tr -d '\r' | grep -ao 'HIT:[^ ]*' | grep -v __hits | sort -u
    zpty -d z
    """#

  /// zsh's completion (driven through a pseudo-terminal; without zsh the test fails)
  /// offers the manifest's lane names for `duet logs` and `duet history --lane`.
  @Test func zshCompletesLaneNames() throws {
    guard let zshPath = program("zsh") else { return }
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("_duet", try tree.duet("completion", "zsh").stdout)
    try tree.write("capture.zsh", Self.zshCapture)
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent("bin"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: tree.url.appendingPathComponent("bin/duet").path, withDestinationPath: duetBinary.path)
    for (line, expected) in [("duet logs kotlin-", ["kotlin-home", "kotlin-theming"]), ("duet history --lane d", ["design-tokens"])] {
      let result = try shell("PATH=\"$PWD/bin:$PATH\" \(zshPath) -f capture.zsh '\(line)'", in: tree.url)
      #expect(result.output.split(separator: "\n").map { String($0.dropFirst(4)) } == expected, "\(line): \(result.output)")
    }
  }

  /// fish offers the manifest's tags for `verify --tag` and git's refs for
  /// `verify --since` (both from `duet __complete`), and bash the tags too.
  @Test func tagsAndRefsComplete() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: a, sh: "true", tags: [fast, android]}
        - {name: b, sh: "true", tags: [ios]}
      """)
    let setup = try shell("git init -q -b main && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git branch release", in: tree.url)
    #expect(setup.status == 0, "\(setup.output)")
    try tree.write("duet.fish", try tree.duet("completion", "fish").stdout)
    try tree.write("duet.bash", try tree.duet("completion", "bash").stdout)
    #expect(try bashCompletes(["verify", "--tag", "a"], in: tree) == ["android"])
    #expect(try bashCompletes(["verify", "--since", "r"], in: tree) == ["release"])
    guard let fishPath = program("fish") else { return }
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent("bin"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: tree.url.appendingPathComponent("bin/duet").path, withDestinationPath: duetBinary.path)
    let words = try shell("PATH=\"$PWD/bin:$PATH\" \(fishPath) --no-config -c 'source duet.fish; complete -C \"duet verify --tag \"; complete -C \"duet verify --since m\"'", in: tree.url)
    #expect(words.output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } == ["android", "fast", "ios", "main"], "\(words.output)")
  }

  /// No shell, or one duet does not know, is a usage error that names the choices.
  @Test func unknownShell() throws {
    let tree = try FixtureTree()
    let none = try tree.duet("completion")
    #expect(none.status == 2)
    #expect(none.stderr.hasPrefix("duet completion: error: completion needs a shell: bash, zsh or fish"))
    let typo = try tree.duet("completion", "bsh")
    #expect(typo.status == 2)
    #expect(typo.stderr.hasPrefix("duet completion: error: unknown shell 'bsh'; did you mean 'bash'?"))
  }
}
