import DuetModel
import DuetSupport

/// One colour or font token from its events: the same values the checked
/// `Reader` takes from the token's node, and nil wherever that reader would
/// add a diagnostic (so the loader falls back to it).
extension TokenEventReader {
  /// `TokenConfigLoader.colorKeys` and `fontKeys`, in the same order (a test checks it).
  static let colorKeys: [StaticString] = ["name", "doc", "note", "light", "dark", "lightAlpha", "darkAlpha", "value", "alpha"]
  static let fontKeys: [StaticString] = [
    "name", "doc", "note", "family", "weight", "size", "lineHeight", "tracking", "opticalSize", "softness",
    "width", "swift",
  ]

  mutating func colorToken() -> ColorToken? {
    guard fields(Self.colorKeys), let (name, doc, note) = named(in: preread.colorNames) else { return nil }
    preread.colorNames[name.text] = location(name)
    let values: ColorToken.Values
    if let value = slots[7] {
      guard slots[3] == nil, slots[4] == nil, slots[5] == nil, slots[6] == nil,
        let rgb = color(value, key: "value", token: name.text, appearances: Appearance.allCases),
        let alpha = alpha(slots[8])
      else { return nil }
      values = .single(ColorValue(rgb, alpha: alpha))
    } else {
      guard slots[8] == nil, let light = slots[3], let dark = slots[4],
        let lightRGB = color(light, key: "light", token: name.text, appearances: [.light]),
        let darkRGB = color(dark, key: "dark", token: name.text, appearances: [.dark]),
        let lightAlpha = alpha(slots[5]), let darkAlpha = alpha(slots[6])
      else { return nil }
      values = .lightDark(light: ColorValue(lightRGB, alpha: lightAlpha), dark: ColorValue(darkRGB, alpha: darkAlpha))
    }
    return ColorToken(name: name.text, doc: doc, note: note, values: values)
  }

  mutating func fontToken() -> FontToken? {
    textStyle = nil
    swiftMapping = false
    guard fields(Self.fontKeys, nestedAt: 11, nested: { $0.textStyleMapping() }),
      let (name, doc, note) = named(in: preread.fontNames)
    else { return nil }
    preread.fontNames[name.text] = location(name)
    guard let family = slots[3].flatMap({ FontFamily(rawValue: $0.text) }),
      let weightSlot = slots[4], weightSlot.plain, let weight = Int(weightSlot.text), weight >= 100, weight <= 900,
      weight % 100 == 0,
      let size = slots[5].flatMap(number), size > 0, let lineHeight = slots[6].flatMap(number), lineHeight > 0,
      let tracking = optionalNumber(slots[7]), let opticalSize = optionalNumber(slots[8]),
      let softness = optionalNumber(slots[9]), let width = optionalNumber(slots[10]),
      slots[11] == nil || swiftMapping
    else { return nil }
    if textStyle == nil { preread.fontWithoutTextStyle = true }
    return FontToken(
      name: name.text, doc: doc, note: note, family: family, weight: weight, size: size, lineHeight: lineHeight,
      tracking: tracking ?? 0, opticalSize: opticalSize, softness: softness, width: width, textStyle: textStyle?.text)
  }

  /// A font's `swift:` mapping, the reader on its start: `textStyle` alone, a known style.
  mutating func textStyleMapping() -> Bool {
    swiftMapping = true
    while events.next(), events.kind != .mappingEnd {
      guard events.kind == .scalar, equals("textStyle"), textStyle == nil, events.next(), events.kind == .scalar else {
        return false
      }
      let style = slot()
      guard TextStyles.all.contains(style.text) else { return false }
      textStyle = style
    }
    return !events.refused
  }

  /// The token's name (a valid one, not in `names` yet), doc and note.
  func named(in names: [String: SourceLocation]) -> (name: Slot, doc: String?, note: String?)? {
    guard let name = slots[0], !name.isNull, TokenNames.problem(with: name.text) == nil, names[name.text] == nil,
      let doc = prose(slots[1]), let note = prose(slots[2])
    else { return nil }
    return (name, doc, note)
  }

  /// `doc` or `note`: `.some(nil)` when absent or blank, nil when null.
  func prose(_ slot: Slot?) -> String?? {
    guard let slot else { return .some(nil) }
    guard !slot.isNull else { return nil }
    return .some(TokenConfigLoader.trimmed(slot.text))
  }

  /// `"#RRGGBB"`, or an alias `"{token}"` recorded for the checked reader to resolve.
  mutating func color(_ slot: Slot, key: String, token: String, appearances: [Appearance]) -> RGB? {
    if !slot.plain, let target = TokenAlias.target(of: slot.text) {
      // The context the checked reader names the token by (`tokenContext`), built only for an alias.
      let context = "colour token '\(token)'"
      for appearance in appearances {
        preread.colorAliases.append(PendingColorAlias(
          token: token, appearance: appearance, key: key, target: target, context: context, location: location(slot)))
      }
      return RGB(0)
    }
    guard !slot.isNull else { return nil }
    return RGB(hex: slot.text)
  }

  /// An alpha from 0 to 1: `.some(nil)` when absent, nil when invalid.
  func alpha(_ slot: Slot?) -> Double?? {
    guard let slot else { return .some(nil) }
    guard let value = number(slot), value >= 0, value <= 1 else { return nil }
    return .some(value)
  }

  /// A finite number: `.some(nil)` when absent, nil when invalid.
  func optionalNumber(_ slot: Slot?) -> Double?? {
    guard let slot else { return .some(nil) }
    return number(slot).map { .some($0) }
  }

  func number(_ slot: Slot) -> Double? { slot.plain ? TokenConfigLoader.number(slot.text) : nil }
}
