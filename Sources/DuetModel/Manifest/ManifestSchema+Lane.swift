import DuetOutput
import DuetSupport

/// The schema of one entry under `lanes:`, a property per key the loader reads.
extension ManifestSchema {
  static func lane(builtins: [String: [String]]) -> OrderedJSON {
    let properties = ManifestLoader.laneKeys.map { key in (key, laneProperty(key, builtins: builtins)) }
    return .object([
      ("type", .string("object")),
      ("required", .array([.string("name")])),
      ("additionalProperties", .bool(false)),
      ("oneOf", .array([
        .object([("required", .array([.string("run")]))]),
        .object([("required", .array([.string("sh")]))]),
      ])),
      ("properties", .object(properties)),
    ])
  }

  /// Each built-in with the options it takes, for `run:`'s description.
  static func runHelp(builtins: [String: [String]]) -> String {
    builtins.sorted { $0.key < $1.key }.map { name, options in
      options.isEmpty ? name : "\(name) [\(options.joined(separator: " "))]"
    }.joined(separator: "; ")
  }

  /// The schema of the lane key `key`.
  static func laneProperty(_ key: String, builtins: [String: [String]]) -> OrderedJSON {
    switch key {
    case "name":
      return .object([("description", .string("The lane's name: letters, digits, '.', '_' and '-'.")), ("type", .string("string")), ("pattern", .string(namePattern))])
    case "run":
      return .object([("description", .string("A built-in duet command, run in-process: \(runHelp(builtins: builtins)).")), ("type", .string("string")), ("pattern", .string(runPattern(builtins: builtins)))])
    case "sh":
      return .object([("description", .string("A shell command, run with /bin/sh -c in the lane's dir. Quote it, or use a block (sh: |), when it holds ': ' or starts with a YAML indicator.")), ("type", .string("string")), ("pattern", .string("\\S"))])
    case "needs":
      return ref("strings", description: "Lanes that must pass before this one starts; each must be a lane of this manifest.")
    case "inputs":
      return ref("paths", description: "Globs of the files whose content makes the lane's fingerprint (the cache).")
    case "covers":
      return ref("paths", description: "The modules this lane tests.")
    case "timeout":
      return .object([
        ("description", .string("How long one attempt may run: 90s, 10m, 1h30m, or a number of seconds (default 30m).")),
        ("anyOf", .array([
          .object([("type", .string("number")), ("exclusiveMinimum", .integer(0)), ("maximum", .integer(Int(Lane.maxTimeout)))]),
          .object([("type", .string("string")), ("pattern", .string(durationPattern))]),
        ])),
      ])
    case "retries":
      return .object([("description", .string("How many times a failed attempt runs again; a lane that fails and then passes is flaky.")), ("type", .string("integer")), ("minimum", .integer(0)), ("maximum", .integer(Lane.maxRetries))])
    case "env":
      return .object([
        ("description", .string("Variables merged into the lane's environment.")),
        ("type", .string("object")),
        ("additionalProperties", .object([("type", .array([.string("string"), .string("number"), .string("boolean"), .string("null")]))])),
      ])
    case "dir":
      return .object([("description", .string("The folder the lane runs in, relative to the tree root; a built-in treats it as its tree.")), ("type", .string("string")), ("pattern", .string(dirPattern))])
    case "requires":
      return ref("strings", description: "Programs that must be on PATH, and android-sdk for the Android SDK (sdk.dir in the lane folder's local.properties, else ANDROID_HOME or ANDROID_SDK_ROOT, a folder); without them the lane is skipped (failed under --strict).")
    case "platforms":
      return .object([
        ("description", .string("The operating systems the lane can run on; elsewhere it is skipped, which fails no run.")),
        ("anyOf", .array([
          .object([("enum", platformNames)]),
          .object([("type", .string("array")), ("minItems", .integer(1)), ("items", .object([("enum", platformNames)]))]),
        ])),
      ])
    case "env-inputs":
      let variable: OrderedJSON = .object([("type", .string("string")), ("pattern", .string("^[^=]+$"))])
      return .object([
        ("description", .string("Environment variables whose values join the lane's fingerprint.")),
        ("anyOf", .array([variable, .object([("type", .string("array")), ("items", variable)])])),
      ])
    case "runs-on":
      return ref("strings", description: "The GitHub runner labels this lane's job runs on, overriding the top-level runs-on.")
    case "pool":
      return .object([("description", .string("A pool declared under the top-level pools:.")), ("type", .string("string"))])
    case "outputs":
      return outputsProperty
    case "reports":
      return ref("paths", description: "Globs of the JUnit XML reports the lane writes; after each attempt those written during it are read and their test cases recorded in the history (duet flaky --tests).")
    default:
      return laterLaneProperty(key)
    }
  }

  /// The schema of `tags:`, `sandbox:` and `network:`.
  static func laterLaneProperty(_ key: String) -> OrderedJSON {
    switch key {
    case "tags":
      return tagsProperty
    case "sandbox":
      return .object([("description", .string("Run this lane in duet verify's sandbox (true), where it sees only what it declares, or never (false); unset follows the manifest's sandbox.")), ("type", .string("boolean"))])
    case "network":
      return .object([("description", .string("In the sandbox, the lane reaches the network (default false: no network there).")), ("type", .string("boolean"))])
    default:
      return .object([])
    }
  }

  /// `outputs:`: one path or a list of them.
  static var outputsProperty: OrderedJSON {
    let path: OrderedJSON = .object([("type", .string("string")), ("pattern", .string(outputPattern))])
    return .object([
      ("description", .string("Files or folders, relative to the tree root and outside .git and .duet, that the lane writes and lanes needing it read, each once; a generated CI workflow hands them to those lanes' jobs.")),
      ("anyOf", .array([path, .object([("type", .string("array")), ("items", path), ("uniqueItems", .bool(true))])])),
    ])
  }

  /// A path inside the tree relative to its root: no leading `/`, not in `.git`
  /// or `.duet`, no `.` or `..` part, no glob character.
  static let outputPattern = #"^(?!/)(?!\.(git|duet)(/|$))(?!.*(^|/)\.\.?(/|$))[^*?\[]+$"#

  /// `tags:`: one word or a list of them.
  static var tagsProperty: OrderedJSON {
    let tag: OrderedJSON = .object([("type", .string("string")), ("pattern", .string(namePattern))])
    return .object([
      ("description", .string("Words that select the lane with duet verify --tag; letters, digits, '.', '_' and '-', each once.")),
      ("anyOf", .array([tag, .object([("type", .string("array")), ("items", tag)])])),
    ])
  }
}
