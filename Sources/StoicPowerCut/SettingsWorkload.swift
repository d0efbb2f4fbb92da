import StoicSettings
import StoicStore

/// Settings updates through ``SettingsStore``, whose file lives two directories below the
/// workload's (created by the first update).
///
/// Claims: each update's generation once it returned. After a cut the store must open with
/// the last claimed generation or the one after it, its fields consistent with each other.
package struct SettingsWorkload: PowerCutWorkload {
  package let name = "settings"
  package let summary = "settings updates through SettingsStore, creating its directories"
  package let isControl = false

  /// The settings the workload updates: a generation and fields derived from it, so that a
  /// mix of two generations shows.
  struct Values: Sendable, Equatable {
    var generation = 0
    var note = ""
    var checksum = 0

    /// The values of generation `generation`.
    init(generation: Int = 0) {
      self.generation = generation
      note = "generation \(generation) " + String(repeating: "x", count: generation % 97)
      checksum = (generation &* 2_654_435_761) % 1_000_003
    }

    static let schema = SettingsSchema(
      version: 1, defaults: Values(),
      fields: [
        .field("generation", \.generation), .field("note", \.note),
        .field("checksum", \.checksum),
      ])
  }

  /// How many updates the workload makes at most.
  static let updates = 100_000

  package init() {}

  /// The settings file's path in `directory`.
  static func path(_ directory: String) -> String {
    StorePath.join(directory, "config/app/prefs.json")
  }

  func open(_ directory: String) throws(StoreError) -> SettingsStore<Values> {
    try SettingsStore.open(
      at: Self.path(directory), schema: Values.schema, fileSystem: PosixFileSystem())
  }

  package func run(
    directory: String, acknowledgements: PowerCutAcknowledgementWriter, seed: UInt64
  ) async throws {
    let store = try open(directory)
    let pause = Int(seed % 3)
    for generation in 1...Self.updates {
      try store.update { $0 = Values(generation: generation) }
      try acknowledgements.claim(.generation(generation))
      PowerCutHost.sleep(milliseconds: 1 + pause)
    }
  }

  package func verify(directory: String, acknowledgements: PowerCutAcknowledgements) async
    -> PowerCutVerdict
  {
    var verdict = PowerCutVerdict()
    let claimed = acknowledgements.generation
    do {
      let store = try open(directory)
      let value = store.value
      let found = value.generation
      verdict.require(
        value == Values(generation: found), "the settings are a mix: \(value)")
      verdict.require(
        found >= claimed, "generation \(claimed) was claimed saved; the store has \(found)")
      verdict.require(found <= claimed + 1, "the store has generation \(found), never saved yet")
      switch store.source {
      case .file, .previousGeneration, .defaults(.noFile): break
      default: verdict.add("the store opened from \(store.source)")
      }
      verdict.facts.append("generation \(found) from \(store.source), \(claimed) claimed")
      // The store accepts an update, and has it after another reopen.
      let next = Values(generation: Self.updates + 1)
      try store.update { $0 = next }
      verdict.require(try open(directory).value == next, "the update after recovery was lost")
    } catch {
      verdict.add("recovery failed: \(error)")
    }
    return verdict
  }
}
