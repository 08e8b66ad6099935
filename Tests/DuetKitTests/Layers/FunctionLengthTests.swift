import Foundation
import Testing

/// No function or initializer in `Sources/` is longer than a reader can hold:
/// 60 lines from the `func` or `init` line to its closing brace, the lines
/// inside multi-line string literals aside. `FunctionScanner` does the counting.
struct FunctionLengthTests {
  static let limit = 60
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Every function over the limit in `Sources/`, with the file it is in.
  static func longFunctions() throws -> [(path: String, function: FunctionScanner.Function)] {
    let sources = repository.appendingPathComponent("Sources")
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    var found: [(String, FunctionScanner.Function)] = []
    for file in files.sorted() where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for function in FunctionScanner.functions(in: text) where function.length > limit {
        found.append(("Sources/" + file, function))
      }
    }
    return found
  }

  @Test func noFunctionIsOverTheLimit() throws {
    let problems = try Self.longFunctions().map { "\($0.path):\($0.function)" }
    #expect(problems == [], "over \(Self.limit) lines: split them into well-named helpers")
  }

  // MARK: The scanner itself

  static func lengths(_ source: String) -> [String: Int] {
    Dictionary(FunctionScanner.functions(in: source).map { ($0.name, $0.length) }, uniquingKeysWith: max)
  }

  @Test func countsFromTheFuncLineToTheClosingBrace() {
    let source = """
      struct Parser {
        func parse() -> Int {
          let a = 1
          return a
        }
        init(value: Int) { }
      }
      """
    #expect(Self.lengths(source) == ["Parser.parse": 4, "Parser.init": 1])
  }

  @Test func bracesInStringsAndCommentsDoNotCount() {
    let source = #"""
      func braces() {
        let open = "{ {"
        let raw = #"}" \(x) }"#
        // }
        /* } /* nested } */ } */
        let interpolated = "\(items.map { "}" + $0 })"
      }
      func after() {
      }
      """#
    #expect(Self.lengths(source) == ["braces": 7, "after": 2])
  }

  @Test func linesInsideAMultiLineStringDoNotCount() {
    let source = #"""
      func page() -> String {
        let text = """
          }
          func fake() {
          """
        return text
      }
      """#
    #expect(Self.lengths(source) == ["page": 4])
  }

  @Test func nestedFunctionsAndTypesAreNamedByWhatEnclosesThem() {
    let source = """
      extension Outer.Inner {
        func run() {
          func step() {
            let x = { 1 }
          }
          struct Local {
            init() {}
          }
          _ = Local.init()
        }
      }
      """
    let names = FunctionScanner.functions(in: source).map(\.name)
    #expect(names == ["Outer.Inner.run.step", "Outer.Inner.run.Local.init", "Outer.Inner.run"])
  }

  @Test func requirementsWithoutBodiesAndClosureDefaultsAreNotBodies() {
    let source = """
      protocol Step {
        func run() -> Int
        var name: String { get }
        init(value: Int)
      }
      class Box {
        class func make(_ body: () -> Void = { }) -> Box {
          Box()
        }
      }
      """
    #expect(Self.lengths(source) == ["Box.make": 3])
  }

  @Test func aFunctionOverTheLimitIsReported() {
    let body = Array(repeating: "  work()", count: 60).joined(separator: "\n")
    let functions = FunctionScanner.functions(in: "func long() {\n\(body)\n}\n")
    #expect(functions.map(\.description) == ["1 long (62 lines)"])
  }
}
