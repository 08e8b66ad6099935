/// One entry of a ranking's JSON as one object: the key's own fields
/// (`LaneKey.JSONFields`, `TestKey.JSONFields`) beside its figures. Each part
/// encodes into the same object and decodes from it, so a lane's and a test's
/// entries share their figures' type and keep the flat shape scripts read.
struct KeyedJSON<Fields: Codable & Sendable & Equatable, Figures: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
  var fields: Fields
  var figures: Figures

  init(_ fields: Fields, _ figures: Figures) {
    self.fields = fields
    self.figures = figures
  }

  init(from decoder: Decoder) throws {
    fields = try Fields(from: decoder)
    figures = try Figures(from: decoder)
  }

  func encode(to encoder: Encoder) throws {
    try fields.encode(to: encoder)
    try figures.encode(to: encoder)
  }
}
