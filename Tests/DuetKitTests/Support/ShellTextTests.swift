import Testing
@testable import DuetSupport

/// Issue 42, item 4: `ShellText` is made only of duet's literal script,
/// `ShellWord`'s quoting and other shell text, so a path or a name
/// interpolated into the git hook or a command is one quoted word.
@Suite("Shell text as a type")
struct ShellTextTests {
  @Test func wordsInterpolatedAreQuoted() {
    let root = "'; rm -rf ~; '"
    let line: ShellText = "cd \(root) && duet verify --lane \("x\n  evil: true")"
    #expect(line.text == "cd ''\\''; rm -rf ~; '\\''' && duet verify --lane 'x\n  evil: true'")
  }

  @Test func safeWordsAndLiteralsAreKept() {
    let words: [ShellText] = ["git", ShellWord.quoted("a/b.c"), "\(3)", "$HOME"]
    #expect(words.joined(separator: " ").text == "git a/b.c 3 $HOME")
    let twice: ShellText = "echo \(ShellWord.quoted("it's"))"
    #expect(twice.text == "echo 'it'\\''s'")
  }
}
