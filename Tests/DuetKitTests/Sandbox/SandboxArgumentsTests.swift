import Foundation
import Testing
@testable import DuetSandbox

/// Issue 56, item 1: what a sandboxed lane sees is worked out from its
/// declaration alone, and read here argument by argument.
@Suite("The sandbox's bubblewrap arguments")
struct SandboxArgumentsTests {
  let layout = SandboxLayout.make(root: "/work/tree", staging: "/work/tree/.duet/sandbox/r/a.1/tree",
                                  files: ["src/a.txt", "config/b.txt"], needOutputs: ["build/lib"],
                                  programFolders: ["/usr/bin", "/home/me/.local/bin", "/work/tree/tools"],
                                  duetFiles: ["/work/tree/.duet/logs/r/changed-files.txt", "/elsewhere/x"],
                                  links: ["/bin": "usr/bin"])

  @Test func aLaneSeesItsDeclarationAndTheSystemOnly() {
    let arguments = BubblewrapArguments.make(layout, network: false, directory: "/work/tree/app", command: "make test")
    let text = arguments.joined(separator: " ")
    #expect(arguments.prefix(4) == ["--unshare-all", "--die-with-parent", "--json-status-fd", "4"])
    #expect(!arguments.contains("--share-net"), "no network unless the lane says network: true")
    #expect(text.contains("--ro-bind-try /usr /usr"))
    #expect(text.contains("--symlink usr/bin /bin"), "a merged-usr link stays a link: \(text)")
    #expect(text.contains("--ro-bind-try /etc /etc") && text.contains("--ro-bind-try /opt /opt"))
    #expect(text.contains("--ro-bind-try /home/me/.local/bin /home/me/.local/bin"), "a requires: program's folder")
    #expect(!text.contains("--ro-bind-try /usr/bin /usr/bin"), "a program under /usr is seen through /usr")
    #expect(!text.contains("/work/tree/tools /work/tree/tools"), "the tree's own folders are not shown whole")
    #expect(text.contains("--tmpfs /tmp --dev /dev --proc /proc --bind /work/tree/.duet/sandbox/r/a.1/tree /work/tree"))
    #expect(text.contains("--ro-bind /work/tree/config/b.txt /work/tree/config/b.txt"))
    #expect(text.contains("--ro-bind /work/tree/src/a.txt /work/tree/src/a.txt"))
    #expect(text.contains("--ro-bind-try /work/tree/build/lib /work/tree/build/lib"), "a need's output, if it is there")
    #expect(text.contains("--ro-bind-try /work/tree/.duet/logs/r/changed-files.txt /work/tree/.duet/logs/r/changed-files.txt"))
    #expect(!text.contains("/elsewhere"), "only duet's own files in the tree are handed in")
    #expect(Array(arguments.suffix(5)) == ["--chdir", "/work/tree/app", "/bin/sh", "-c", "make test"])
    // The tree's root is bound before the files in it, or the files would be hidden under it.
    let root = arguments.firstIndex(of: "--bind")!, file = arguments.firstIndex(of: "/work/tree/src/a.txt")!
    #expect(root < file)
    #expect(layout.mountPoints == ["src/a.txt", "config/b.txt", "build/lib", ".duet/logs/r/changed-files.txt"])
  }

  @Test func networkTrueKeepsTheNetwork() {
    let arguments = BubblewrapArguments.make(layout, network: true, directory: "/work/tree", command: "true")
    #expect(arguments.prefix(2) == ["--unshare-all", "--share-net"])
  }

  @Test func writesAreSortedIntoReportsAndStrays() {
    let sorted = SandboxCollection.sort(["build/out/a.o", "reports/TEST-a.xml", "stray.txt", "src/new.txt"],
                                        outputs: ["build/out"], reports: ["reports/*.xml"])
    #expect(sorted.reports == ["reports/TEST-a.xml"])
    #expect(sorted.strays == ["stray.txt", "src/new.txt"])
  }
}

/// Issue 56, item 2: the files a lane reached, from strace's text.
@Suite("Reading a file trace")
struct FileTraceTests {
  @Test func successfulReadsAreNamedAbsolute() {
    let trace = #"""
    5835  execve("/bin/sh", ["/bin/sh", "-c", "cat cfg/b.txt"], 0x7ffe /* 35 vars */) = 0
    5835  newfstatat(AT_FDCWD</t>, "/root/.cargo/bin/cat", 0x7ffe, 0) = -1 ENOENT (No such file or directory)
    5836  openat(AT_FDCWD</t>, "cfg/b.txt", O_RDONLY) = 3</t/cfg/b.txt>
    5836  newfstatat(3</t/cfg/b.txt>, "", {st_mode=S_IFREG|0644, st_size=2, ...}, AT_EMPTY_PATH) = 0
    5835  --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=5836} ---
    5835  chdir("/t/cfg")             = 0
    5837  openat(AT_FDCWD</t/cfg>, "../a b\"\303\251.txt", O_RDONLY) = 3</t/a b"é.txt>
    5835  openat(AT_FDCWD</t/cfg>, "../stray", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</t/stray>
    5835  access("x.txt", R_OK) = 0
    5838  +++ exited with 0 +++
    """#
    let reads = FileTrace.reads(trace, workingDirectory: "/t")
    #expect(reads == ["/bin/sh", "/t/a b\"é.txt", "/t/cfg/b.txt", "/t/cfg/x.txt"], "\(reads)")
  }

  @Test func undeclaredReadsAreThoseNoDeclarationCovers() {
    let found = SandboxFindings.undeclared(
      reads: ["/t/src/a.txt", "/t/config/b.txt", "/t/build/lib/x.jar", "/t/.duet/logs/x", "/t/src", "/usr/bin/cat", "/root/.netrc", "/tmp/x"],
      root: "/t", declared: ["src/a.txt", "build/lib"], visible: ["/usr", "/tmp"], isFile: { $0 != "/t/src" })
    #expect(found.inTree == ["config/b.txt"])
    #expect(found.outside == ["/root/.netrc"])
    #expect(SandboxFindings.failedOnlyInside(inTree: found.inTree, outside: [], traced: true)
            == "reads outside its inputs: config/b.txt; add it to inputs:")
    #expect(SandboxFindings.failedOnlyInside(inTree: [], outside: [], traced: false).contains("duet cannot name the files"))
    #expect(SandboxFindings.wroteOutside(["stray.txt"]) == "wrote outside its outputs: stray.txt")
  }
}
