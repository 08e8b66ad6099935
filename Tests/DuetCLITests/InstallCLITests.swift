import Foundation
import Testing

@Suite("make install, make uninstall and tools/duet through a link")
struct InstallCLITests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let installed = ["bin/duet", "share/man/man1/duet.1", "share/bash-completion/completions/duet", "share/zsh/site-functions/_duet", "share/fish/vendor_completions.d/duet.fish"]

  /// `make install PREFIX=... BINARY=...` (the binary under test, so no release
  /// build) puts duet, its man page and its completions under the prefix; the
  /// installed duet runs from anywhere; `make uninstall` removes exactly those files.
  @Test func installIntoATemporaryPrefixThenUninstall() throws {
    let prefix = try FixtureTree()
    let install = try shell("make --no-print-directory -C '\(Self.repository.path)' install PREFIX='\(prefix.url.path)' BINARY='\(duetBinary.path)'", in: prefix.url)
    #expect(install.status == 0, "\(install.output)")
    for path in Self.installed { #expect(prefix.exists(path), "\(path) not installed") }

    let elsewhere = try FixtureTree()
    let version = try shell("'\(prefix.url.path)/bin/duet' --version", in: elsewhere.url)
    #expect(version.status == 0)
    #expect(version.output.hasPrefix("duet "))
    #expect(install.output.hasSuffix(version.output), "make install ends with the installed duet's --version")
    #expect(try prefix.read("share/man/man1/duet.1") == (try elsewhere.duet("man")).stdout)
    #expect(try prefix.read("share/bash-completion/completions/duet") == (try elsewhere.duet("completion", "bash")).stdout)

    let uninstall = try shell("make --no-print-directory -C '\(Self.repository.path)' uninstall PREFIX='\(prefix.url.path)'", in: prefix.url)
    #expect(uninstall.status == 0, "\(uninstall.output)")
    for path in Self.installed { #expect(!prefix.exists(path), "\(path) left behind") }
  }

  /// Issue 41, item 2: after `make install` into a prefix the shells are told
  /// of (`XDG_DATA_DIRS`, as a packaged install would be), fish and bash (through
  /// the bash-completion package) complete `duet <TAB>` from the files it wrote;
  /// and root's `/usr/local`, which Debian's fish does not search, puts the fish
  /// file where fish looks.
  @Test func shellsFindTheInstalledCompletions() throws {
    let prefix = try FixtureTree()
    let share = prefix.url.appendingPathComponent("share").path
    let install = try shell("XDG_DATA_DIRS='\(share)' make --no-print-directory -C '\(Self.repository.path)' install PREFIX='\(prefix.url.path)' BINARY='\(duetBinary.path)'", in: prefix.url)
    #expect(install.status == 0, "\(install.output)")
    #expect(prefix.exists("share/fish/vendor_completions.d/duet.fish"))
    #expect(!install.output.contains("bash-completion package, which is not installed"), "tools/install-deps test installs it: \(install.output)")

    let bin = prefix.url.appendingPathComponent("bin").path
    let fish = try shell("PATH='\(bin)':\"$PATH\" XDG_DATA_DIRS='\(share)' fish -c 'complete -C \"duet \"'", in: prefix.url)
    #expect(fish.status == 0, "\(fish.output)")
    #expect(fish.output.split(separator: "\n").contains { $0.hasPrefix("verify") }, "fish: \(fish.output)")
    #expect(fish.output.split(separator: "\n").contains { $0.hasPrefix("lanes") }, "fish: \(fish.output)")

    // bash-completion loads `duet`'s file on the first completion, from XDG_DATA_DIRS.
    // (On Linux: macOS's own bash is 3.2, which bash-completion 2 does not run on.)
    #if os(Linux)
    try prefix.write("complete.bash", """
      source /usr/share/bash-completion/bash_completion
      PATH='\(bin)':"$PATH"
      _completion_loader duet
      complete -p duet >/dev/null || { echo "no completion for duet"; exit 1; }
      COMP_WORDS=(duet ""); COMP_CWORD=1; COMP_LINE="duet "; COMP_POINT=${#COMP_LINE}
      function=$(complete -p duet | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
      "$function" duet "" duet
      printf '%s\\n' "${COMPREPLY[@]}"

      """)
    let bash = try shell("XDG_DATA_DIRS='\(share)' bash complete.bash", in: prefix.url)
    #expect(bash.status == 0, "\(bash.output)")
    #expect(bash.output.split(separator: "\n").contains("verify"), "bash: \(bash.output)")
    #endif

    #if os(Linux)
      // Root's /usr/local: Debian's fish searches nothing under it, so the file goes to fish's own folder.
      let folders = try shell("env -u XDG_DATA_DIRS '\(Self.repository.path)/tools/completion-folders' /usr/local", in: prefix.url)
      let fishFolder = folders.output.split(separator: "\n").first { $0.hasPrefix("fish ") }.map { String($0.dropFirst(5)) } ?? ""
      let searched = try shell("env -u XDG_DATA_DIRS DIR='\(fishFolder)' fish -c 'contains -- $DIR $fish_complete_path'", in: prefix.url)
      #expect(searched.status == 0, "fish does not search \(fishFolder)")
    #endif
  }

  /// Issue 53, items 4 and 7: `make` asks fish nothing for a target that
  /// installs no completion, and asking it writes nothing into HOME (a first
  /// fish run made `~/.config/fish` and `~/.local/share/fish`); a prefix no
  /// shell searches gets bash's line too, beside fish's and zsh's.
  @Test func completionFoldersWriteNothingIntoHomeAndNameEveryShell() throws {
    let home = try FixtureTree()
    let dry = try shell("HOME='\(home.url.path)' make -n --no-print-directory -C '\(Self.repository.path)' check", in: home.url)
    #expect(dry.status == 0, "\(dry.output)")
    let own = home.url.appendingPathComponent(".local").path
    let mine = try shell("HOME='\(home.url.path)' '\(Self.repository.path)/tools/completion-folders' --notes '\(own)'", in: home.url)
    #expect(mine.output.contains("fish \(own)/share/fish/vendor_completions.d"), "\(mine.output)")
    #expect(!mine.output.contains("completions: fish does not search"), "fish searches ~/.local/share always: \(mine.output)")
    #expect(!mine.output.contains("bash-completion does not search"), "bash-completion reads ~/.local/share: \(mine.output)")
    let custom = try shell("HOME='\(home.url.path)' env -u XDG_DATA_DIRS '\(Self.repository.path)/tools/completion-folders' --notes /opt/duet-custom", in: home.url)
    #expect(custom.output.contains("completions: bash-completion does not search /opt/duet-custom/share/bash-completion/completions: "
                                   + "add /opt/duet-custom/share to XDG_DATA_DIRS, or link /opt/duet-custom/share/bash-completion/completions/duet "
                                   + "into \(home.url.path)/.local/share/bash-completion/completions"), "\(custom.output)")
    #expect(custom.output.contains("completions: fish does not search /opt/duet-custom/share/fish/vendor_completions.d"), "\(custom.output)")
    for folder in [".config", ".local/share/fish", ".cache"] {
      #expect(!home.exists(folder), "\(folder) was made in HOME")
    }
  }

  /// `tools/build-release` writes the commit into BuildCommit.swift for the build
  /// and puts the committed text back afterwards, when the build fails too; a
  /// stand-in `swift` records what the build saw, so nothing is compiled.
  @Test func buildStampsTheCommitAndRestoresTheFile() throws {
    let checkout = try FixtureTree()
    let stamp = "Sources/duet/BuildCommit.swift"
    let committed = try String(contentsOf: Self.repository.appendingPathComponent(stamp), encoding: .utf8)
    #expect(committed.contains("let duetBuildCommit = \"unknown commit\"\n"), "the committed stamp must say unknown commit")
    try checkout.write(stamp, committed)
    try checkout.write("tools/build-release", try String(contentsOf: Self.repository.appendingPathComponent("tools/build-release"), encoding: .utf8))
    try checkout.write("stubs/swift", """
      #!/bin/sh
      case "$*" in *--show-bin-path*) echo "$PWD/.build/release"; exit 0 ;; esac
      cp Sources/duet/BuildCommit.swift seen.swift
      exit "${SWIFT_EXIT:-0}"
      """)
    for file in ["tools/build-release", "stubs/swift"] {
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: checkout.url.appendingPathComponent(file).path)
    }
    let setup = try shell("git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git rev-parse --short=12 HEAD", in: checkout.url)
    #expect(setup.status == 0, "\(setup.output)")
    let commit = setup.output.trimmingCharacters(in: .whitespacesAndNewlines)

    let built = try shell("PATH=\"$PWD/stubs:$PATH\" tools/build-release", in: checkout.url)
    #expect(built.status == 0, "\(built.output)")
    #expect(built.output.hasSuffix("/.build/release/duet\n"))
    #expect(try checkout.read("seen.swift").contains("let duetBuildCommit = \"\(commit)\"\n"))
    #expect(try checkout.read(stamp) == committed)

    try checkout.write("README", "changed\n")
    _ = try shell("git add README && git -c user.name=t -c user.email=t@t commit -qm two && echo edit >> README", in: checkout.url)
    let failed = try shell("PATH=\"$PWD/stubs:$PATH\" SWIFT_EXIT=1 tools/build-release", in: checkout.url)
    #expect(failed.status != 0)
    #expect(try checkout.read("seen.swift").contains("-dirty\"\n"), "a tracked edit makes the commit -dirty")
    #expect(try checkout.read(stamp) == committed, "a failed build leaves the committed text")
    #expect(try shell("git status --porcelain -- \(stamp)", in: checkout.url).output.isEmpty)
  }

  /// `tools/duet` linked into a bin folder runs from any working folder: it finds
  /// its checkout from where the link points, not from the link's own folder.
  /// The checkout here is a copy holding an up-to-date binary, so nothing is built.
  @Test func launcherThroughASymbolicLink() throws {
    let checkout = try FixtureTree()
    try checkout.write("Package.swift", "// a stand-in\n")
    try checkout.write("Sources/duet/main.swift", "// a stand-in\n")
    let launcher = try String(contentsOf: Self.repository.appendingPathComponent("tools/duet"), encoding: .utf8)
    try checkout.write("tools/duet", launcher)
    let manager = FileManager.default
    try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: checkout.url.appendingPathComponent("tools/duet").path)
    try manager.createDirectory(at: checkout.url.appendingPathComponent(".build/release"), withIntermediateDirectories: true)
    let binary = checkout.url.appendingPathComponent(".build/release/duet")
    try manager.copyItem(at: duetBinary, to: binary)
    // Newer than every source, so the launcher does not rebuild.
    try manager.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: binary.path)

    let bin = try FixtureTree()
    try manager.createDirectory(at: bin.url.appendingPathComponent("bin"), withIntermediateDirectories: true)
    // A relative link to a relative link, as `ln -s` often leaves them.
    try manager.createSymbolicLink(atPath: bin.url.appendingPathComponent("bin/duet-real").path, withDestinationPath: checkout.url.appendingPathComponent("tools/duet").path)
    try manager.createSymbolicLink(atPath: bin.url.appendingPathComponent("bin/duet").path, withDestinationPath: "duet-real")

    let project = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: only, sh: \"true\"}\n")
    try project.write("deep/.keep", "")
    let result = try shell("PATH='\(bin.url.path)/bin':\"$PATH\" duet lanes", in: project.url.appendingPathComponent("deep"))
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.hasPrefix("lanes/manifest.yaml: 1 lane(s), in run order"))
  }
}
