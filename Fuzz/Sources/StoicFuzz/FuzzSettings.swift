import StoicSettings

/// What the fuzzed settings hold: a field of every common kind.
struct FuzzSettings: Sendable, Equatable {
  enum Theme: String, Codable, Sendable { case light, dark, system }
  struct Window: Codable, Sendable, Equatable {
    var width = 800
    var height = 600
  }

  var speed = 600
  var theme = Theme.system
  var name = "Guest"
  var recent: [String] = []
  var volume = 0.5
  var enabled = true
  var window = Window()

  static let schema = SettingsSchema(
    version: 3, defaults: FuzzSettings(),
    fields: [
      .field("speed", \.speed, .range(1...2000)),
      .field("theme", \.theme),
      .field("name", \.name, .nonEmpty, .maxCount(32)),
      .field("recent", \.recent, .maxCount(5)),
      .field("volume", \.volume, .range(0...1)),
      .field("enabled", \.enabled),
      .field("window", \.window),
    ],
    migrations: [
      .renaming("scroll", to: "speed", from: 1), .renaming("title", to: "name", from: 2),
    ],
    preservesUnknownKeys: true)
}
