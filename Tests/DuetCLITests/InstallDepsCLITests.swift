@testable import DuetFuzzSupport
import Foundation
import Testing

/// `tools/install-deps`, which `make install` and `make check` run, on a copy of
/// it with stand-ins for `id`, `sudo`, `apt-get`, `dpkg-query` and `python3` that
/// log what they were asked, and a PATH of nothing else (so no real package is installed).
@Suite("tools/install-deps: root without sudo, a user with sudo, the test venv")
struct InstallDepsCLITests {
  static let stubs: [String: String] = [
    "id": "#!/bin/sh\necho \"${STUB_UID:-0}\"\n",
    "dpkg-query": "#!/bin/sh\ncase \" $STUB_INSTALLED \" in *\" $3 \"*) printf 'install ok installed' ;; esac\n",
    "apt-get": "#!/bin/sh\necho \"apt-get $*\" >> \"$STUB_LOG\"\n",
    "sudo": "#!/bin/sh\necho \"sudo: $(id -u)\" >> \"$STUB_LOG\"\nexec \"$@\"\n",
    // A python3 whose venv module works unless STUB_NO_VENV is set; its venv's pip logs.
    "python3": """
      #!/bin/sh
      [ "$1 $2" = "-m venv" ] || exit 3
      [ -n "$STUB_NO_VENV" ] && { echo "ensurepip is not available" >&2; exit 1; }
      mkdir -p "$3/bin"
      printf '#!/bin/sh\\necho "venv of %s: $*" >> "$STUB_LOG"\\n' "$0" > "$3/bin/python"
      printf '#!/bin/sh\\nexit 0\\n' > "$3/bin/pip"
      printf '#!/bin/sh\\necho 0.39.0\\n' > "$3/bin/check-jsonschema"
      chmod +x "$3/bin/python" "$3/bin/pip" "$3/bin/check-jsonschema"
      """,
  ]

  /// A checkout holding only the script, its requirements, the stand-ins under
  /// `stubs/` and links to the few real programs the script uses under `bin/`.
  func checkout(withSudo: Bool) throws -> FixtureTree {
    let tree = try FixtureTree()
    let repository = InstallCLITests.repository
    for file in ["tools/install-deps", "tools/test-requirements.txt"] {
      try tree.write(file, try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8))
    }
    var stubs = Self.stubs
    if !withSudo { stubs["sudo"] = nil }
    for (name, text) in stubs { try tree.write("stubs/\(name)", text) }
    // The Debian python3 the script falls back to: the same stand-in, always with venv.
    try tree.write("debian/python3", Self.stubs["python3"]!.replacingOccurrences(of: "[ -n \"$STUB_NO_VENV\" ]", with: "false"))
    for file in ["tools/install-deps", "debian/python3"] + stubs.keys.map({ "stubs/\($0)" }) {
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tree.url.appendingPathComponent(file).path)
    }
    let setup = try shell("mkdir bin && for p in bash sh env dirname uname cmp cp rm mkdir chmod printf cat; do ln -s \"$(command -v $p)\" bin/$p; done", in: tree.url)
    #expect(setup.status == 0, "\(setup.output)")
    return tree
  }

  /// Runs `tools/install-deps what` in `tree` with `variables`; its status, output and the stand-ins' log.
  func installDeps(_ what: String, in tree: FixtureTree, _ variables: String = "") throws -> (status: Int32, output: String, log: String) {
    let command = "rm -f calls.log; touch calls.log; env -i PATH=\"$PWD/stubs:$PWD/bin\" STUB_LOG=\"$PWD/calls.log\" INSTALL_DEPS_DEBIAN_PYTHON=\"$PWD/debian/python3\" \(variables) bash tools/install-deps \(what)"
    let result = try shell(command, in: tree.url)
    return (result.status, result.output, try tree.read("calls.log"))
  }

  static let buildInstall = "apt-get install -y -q --no-install-recommends libsqlite3-dev libyaml-dev libssl-dev libcurl4-openssl-dev make"

  /// As root (a CI container has no sudo) apt-get runs directly; a second run with
  /// everything installed asks apt-get nothing, so it needs no network.
  @Test func rootInstallsWithoutSudo() throws {
    let tree = try checkout(withSudo: false)
    let first = try installDeps("build", in: tree, "STUB_UID=0")
    #expect(first.status == 0, "\(first.output)")
    #expect(first.log == "apt-get update -q\n\(Self.buildInstall)\n")
    let again = try installDeps("build", in: tree, "STUB_UID=0 STUB_INSTALLED='libsqlite3-dev libyaml-dev libssl-dev libcurl4-openssl-dev make'")
    #expect(again.status == 0 && again.log.isEmpty, "\(again.output)\n\(again.log)")
  }

  /// A user runs apt-get through sudo; a user without sudo gets an error naming
  /// the command that needs root, and nothing is installed.
  @Test func userInstallsThroughSudo() throws {
    let withSudo = try checkout(withSudo: true)
    let user = try installDeps("build", in: withSudo, "STUB_UID=1000 STUB_INSTALLED='make'")
    #expect(user.status == 0, "\(user.output)")
    let install = "apt-get install -y -q --no-install-recommends libsqlite3-dev libyaml-dev libssl-dev libcurl4-openssl-dev"
    #expect(user.log == "sudo: 1000\napt-get update -q\nsudo: 1000\n\(install)\n")

    let withoutSudo = try checkout(withSudo: false)
    let refused = try installDeps("build", in: withoutSudo, "STUB_UID=1000")
    #expect(refused.status == 1)
    #expect(refused.output.contains("install-deps: need root to run: apt-get update -q"), "\(refused.output)")
    #expect(refused.log.isEmpty)
  }

  /// `test` adds kotlin, zsh, fish, bash-completion, git, groff, chromium, nginx-light, bubblewrap and strace, and makes `.build/venv` with the
  /// python3 on PATH and pip-installs the requirements into it; a second run
  /// leaves the venv alone.
  @Test func testToolsGoIntoAVenv() throws {
    let tree = try checkout(withSudo: false)
    let first = try installDeps("test", in: tree)
    #expect(first.status == 0, "\(first.output)")
    let lines = first.log.split(separator: "\n").map(String.init)
    #expect(lines.contains("\(Self.buildInstall) kotlin zsh fish bash-completion git groff-base chromium nginx-light bubblewrap strace"), "\(first.log)")
    #expect(lines.dropLast().last?.hasPrefix("venv of \(tree.url.path)/stubs/python3: -m pip install -q --disable-pip-version-check -r ") == true, "\(first.log)")
    // BuildGrid comes without its dependencies: the tests read only its REAPI modules.
    #expect(lines.last == "venv of \(tree.url.path)/stubs/python3: -m pip install -q --disable-pip-version-check --no-deps buildgrid==0.4.4", "\(first.log)")
    #expect(tree.exists(".build/venv/bin/check-jsonschema"))
    let again = try installDeps("test", in: tree, "STUB_INSTALLED='libsqlite3-dev libyaml-dev libssl-dev libcurl4-openssl-dev make kotlin zsh fish bash-completion git groff-base chromium nginx-light bubblewrap strace'")
    #expect(again.status == 0 && again.log.isEmpty, "\(again.output)\n\(again.log)")
  }

  /// Debian's python3 without python3-venv cannot make a venv: the script
  /// installs python3-venv and makes it with Debian's python3 instead.
  @Test func debianPythonWithoutVenvGetsIt() throws {
    let tree = try checkout(withSudo: false)
    let installed = "STUB_INSTALLED='libsqlite3-dev libyaml-dev libssl-dev libcurl4-openssl-dev make kotlin zsh fish bash-completion git groff-base chromium nginx-light bubblewrap strace'"
    let result = try installDeps("test", in: tree, "STUB_NO_VENV=1 \(installed)")
    #expect(result.status == 0, "\(result.output)")
    let lines = result.log.split(separator: "\n").map(String.init)
    #expect(lines.first == "apt-get update -q")
    #expect(lines.dropFirst().first == "apt-get install -y -q --no-install-recommends python3 python3-venv")
    #expect(lines.dropLast().last?.hasPrefix("venv of \(tree.url.path)/debian/python3: -m pip install") == true, "\(result.log)")
  }
}

/// The README's two commands are what CI and the Makefile run.
@Suite("the README's install and test commands, .ci/run and make check")
struct ReadmeCommandsTests {
  static let repository = InstallCLITests.repository

  func read(_ path: String) throws -> String {
    try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
  }

  /// The README installs with `make install` and tests with `make check`, and
  /// `.ci/run`'s one command is that test command.
  @Test func ciRunsTheReadmesTestCommand() throws {
    let readme = try read("README.md")
    #expect(readme.contains("\nmake install      #"))
    #expect(readme.contains("\nmake check          #"))
    #expect(readme.contains("tools/duet verify"))
    let commands = try read(".ci/run").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("set ") && !$0.hasPrefix("cd ") && !$0.hasPrefix("command -v make") && !$0.hasPrefix("start=") && !$0.hasPrefix("echo ") }
    #expect(commands == ["make check"])
  }

  /// `make check` installs the test tools, runs the whole suite with the venv on
  /// PATH, `make install` into a prefix of its own, then `tools/duet verify --strict`
  /// (read from `make -n`, which runs nothing).
  @Test func makeCheckRunsEverything() throws {
    let dry = try shell("make -n --no-print-directory check", in: Self.repository)
    #expect(dry.status == 0, "\(dry.output)")
    let lines = dry.output.split(separator: "\n").map(String.init)
    let expected = ["tools/install-deps test", "swift build --build-tests", "swift test --skip-build", "install PREFIX=", "tools/duet verify --strict"]
    let positions = expected.map { step in lines.firstIndex { $0.contains(step) } }
    #expect(positions.allSatisfy { $0 != nil }, "\(dry.output)")
    #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(dry.output)")
    #expect(lines.contains { $0.contains(".build/venv/bin:") && $0.contains("swift test") })
  }

  /// A missing program is named with the command that installs it.
  @Test func missingToolNamesItsInstallCommand() {
    #expect(TestTools.find("no-such-program-\(getpid())") == nil)
    #expect(TestTools.missing("kotlinc", for: "the test") == "kotlinc is not installed, and the test needs it: run `make test-deps` (or `apt-get install -y kotlin`; `make check` does it too)")
    #expect(TestTools.missing("check-jsonschema", for: "x").contains("installs check-jsonschema into .build/venv"))
  }

  /// Issue 53, item 13: the README is a newcomer's first page: under 200
  /// lines, the rest on the docs pages it links to.
  @Test func theReadmeStaysShort() throws {
    let lines = try read("README.md").split(separator: "\n", omittingEmptySubsequences: false).count - 1
    #expect(lines < 200, "README.md is \(lines) lines; move the detail to a docs page and link it")
  }

  /// Issue 53, item 3: install.md's lists and the generated GitLab job's
  /// apt-get line hold what `tools/install-deps build` installs (install.md
  /// left out `libcurl4-openssl-dev`, which the build needs).
  @Test func theDocsListWhatTheScriptInstalls() throws {
    let repository = TestTools.repository
    let script = try String(contentsOf: repository.appendingPathComponent("tools/install-deps"), encoding: .utf8)
    func list(_ name: String) -> [String] {
      guard let line = script.split(separator: "\n").first(where: { $0.hasPrefix("\(name)=(") }) else { return [] }
      return line.dropFirst(name.count + 2).prefix { $0 != ")" }.split(separator: " ").map(String.init)
    }
    let apt = list("apt_packages"), brew = list("brew_packages")
    #expect(apt.contains("libcurl4-openssl-dev") && !brew.isEmpty, "install-deps' lists: \(apt) \(brew)")
    let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    let install = words(try String(contentsOf: repository.appendingPathComponent("docs/install.md"), encoding: .utf8))
    #expect(install.contains("`\(apt.joined(separator: " "))` with apt-get"), "docs/install.md's apt-get list is not install-deps' \(apt)")
    #expect(install.contains("`\(brew.joined(separator: " "))` with Homebrew"), "docs/install.md's Homebrew list is not install-deps' \(brew)")
    let ci = try String(contentsOf: repository.appendingPathComponent("docs/ci.md"), encoding: .utf8)
    let gitlab = ci.split(separator: "\n").filter { $0.contains("apt-get install -y -q") && $0.contains("swift build") }
    #expect(!gitlab.isEmpty)
    for line in gitlab {
      for package in apt where package != "make" {
        #expect(line.contains(" \(package) "), "the generated GitLab job builds duet without \(package)")
      }
    }
  }
}
