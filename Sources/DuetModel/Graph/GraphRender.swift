import DuetSupport

/// The lane DAG as text for docs and reviews (`duet graph`): Graphviz DOT or a
/// Mermaid flowchart. An edge runs from a lane to the lanes that need it, so
/// arrows follow the order lanes run in. Pure and deterministic: manifest order.
package enum GraphRender {
  package enum Format: String, Sendable, CaseIterable {
    case dot, mermaid
  }

  package static func render(_ graph: LaneGraph, format: Format) -> String {
    switch format {
    case .dot: return dot(graph)
    case .mermaid: return mermaid(graph)
    }
  }

  static func dot(_ graph: LaneGraph) -> String {
    var lines = ["digraph lanes {", "  rankdir=LR;", "  node [shape=box];"]
    for name in graph.names { lines.append("  \(dotID(name));") }
    for (lane, needs) in graph.needs.enumerated() {
      for need in needs { lines.append("  \(dotID(graph.names[need])) -> \(dotID(graph.names[lane]));") }
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  static func mermaid(_ graph: LaneGraph) -> String {
    var lines = ["flowchart LR"]
    for (i, name) in graph.names.enumerated() { lines.append("  n\(i)[\"\(mermaidLabel(name))\"]") }
    for (lane, needs) in graph.needs.enumerated() {
      for need in needs { lines.append("  n\(need) --> n\(lane)") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A double-quoted DOT id: `"` and `\` escaped, line breaks as `\n`.
  static func dotID(_ name: String) -> String {
    var out = "\""
    for character in name {
      switch character {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": break
      default: out.append(character)
      }
    }
    return out + "\""
  }

  /// A Mermaid label in quotes: `"` and markup as entity codes.
  static func mermaidLabel(_ name: String) -> String {
    var out = ""
    for character in name {
      switch character {
      case "\"": out += "#quot;"
      case "<": out += "#lt;"
      case ">": out += "#gt;"
      case "#": out += "#35;"
      case "\n", "\r": out += " "
      default: out.append(character)
      }
    }
    return out
  }
}
