/// The lane names an adoption plan has handed out: a name asked for twice gets
/// `-2`, `-3`… on the later lanes.
struct UniqueLaneNames {
  var taken = Set<String>()

  mutating func claim(_ base: String) -> String {
    var name = base
    var counter = 2
    while taken.contains(name) {
      name = "\(base)-\(counter)"
      counter += 1
    }
    taken.insert(name)
    return name
  }

  /// Gives back a name claimed for a lane that is not written after all.
  mutating func release(_ name: String) {
    taken.remove(name)
  }
}
