import StoicStore

/// Generations of one file, each replacing the last: through ``AtomicFile`` (the real code),
/// or, as a control, written to a temporary, synced and renamed over the file without the
/// directory sync that makes the rename durable.
///
/// Claims: each generation once its write returned. After a cut the file must hold the last
/// claimed generation or the one after it (in flight), intact.
package struct GenerationFileWorkload: PowerCutWorkload {
  /// How a generation is written.
  package enum Writer: Sendable {
    /// ``AtomicFile/write(_:validate:)``: envelope, previous generation, synced rename.
    case atomicFile
    /// Temporary file, data sync, rename, and no directory sync (the control).
    case renameWithoutDirectorySync
  }

  package let name: String
  package let summary: String
  let writer: Writer

  package var isControl: Bool { writer == .renameWithoutDirectorySync }

  /// How many generations are written at most.
  static let generations = 100_000

  package init(name: String, summary: String, writer: Writer) {
    self.name = name
    self.summary = summary
    self.writer = writer
  }

  /// The file's path in `directory`.
  static func path(_ directory: String) -> String { StorePath.join(directory, "state.bin") }

  package func run(
    directory: String, acknowledgements: PowerCutAcknowledgementWriter, seed: UInt64
  ) async throws {
    let fileSystem = PosixFileSystem()
    try fileSystem.createDirectoryDurably(directory)
    let path = Self.path(directory)
    // The control waits long after each rename, so that most cuts fall between a rename and
    // the next generation's data sync (which, on ext4 and xfs, commits the rename with it).
    let pause = isControl ? 150 : 1 + Int(seed % 3)
    for generation in 1...Self.generations {
      try write(PowerCutPayload.generation(generation), to: path, on: fileSystem)
      try acknowledgements.claim(.generation(generation))
      PowerCutHost.sleep(milliseconds: pause)
    }
  }

  /// Writes one generation.
  private func write(_ bytes: [UInt8], to path: String, on fileSystem: PosixFileSystem)
    throws(StoreError)
  {
    switch writer {
    case .atomicFile:
      try AtomicFile(path: path, fileSystem: fileSystem).write(bytes)
    case .renameWithoutDirectorySync:
      let temporary = path + ".tmp"
      if try fileSystem.exists(temporary) { try fileSystem.remove(temporary) }
      let handle = try fileSystem.open(temporary, .createExclusive)
      do throws(StoreError) {
        try fileSystem.write(handle, bytes, at: 0)
        try fileSystem.sync(handle)
      } catch {
        try? fileSystem.close(handle)
        throw error
      }
      try fileSystem.close(handle)
      try fileSystem.rename(temporary, to: path)
    }
  }

  /// The file's contents as the reader of this writer finds them.
  private func read(_ path: String, on fileSystem: PosixFileSystem) throws(StoreError)
    -> [UInt8]?
  {
    switch writer {
    case .atomicFile: try AtomicFile(path: path, fileSystem: fileSystem).read()?.bytes
    case .renameWithoutDirectorySync: try fileSystem.readWholeFile(path)
    }
  }

  package func verify(directory: String, acknowledgements: PowerCutAcknowledgements) async
    -> PowerCutVerdict
  {
    var verdict = PowerCutVerdict()
    let fileSystem = PosixFileSystem()
    let path = Self.path(directory)
    let claimed = acknowledgements.generation
    do {
      let bytes = try read(path, on: fileSystem)
      if let bytes {
        if let header = PowerCutPayload.decode(bytes, as: .generation) {
          let found = Int(header.first)
          verdict.require(
            found >= claimed, "generation \(claimed) was claimed written; the file holds \(found)")
          verdict.require(
            found <= claimed + 1, "the file holds generation \(found), never written yet")
          verdict.facts.append("generation \(found) found, \(claimed) claimed")
        } else {
          verdict.add("the file is not an intact generation (a mix or torn)")
        }
      } else {
        verdict.require(
          claimed == 0, "generation \(claimed) was claimed written; the file is missing")
        verdict.facts.append("no file, \(claimed) claimed")
      }
      // The file accepts a write, and reads it back.
      let next = PowerCutPayload.generation(Self.generations + 1)
      try write(next, to: path, on: fileSystem)
      verdict.require(
        try read(path, on: fileSystem) == next,
        "the generation written after recovery was not read back")
    } catch {
      verdict.add("recovery failed: \(error)")
    }
    return verdict
  }
}
