extension AtomicFile {
  /// What one generation on disk turned out to be.
  enum Inspection {
    case missing
    case usable([UInt8])
    case unusable(reason: String)
  }

  /// Reads and checks one generation. Read errors (`EIO`) are thrown, not treated as
  /// corruption: a failing disk is not a reason to set data aside.
  func inspect(_ candidate: String, validate: (([UInt8]) -> Bool)?) throws(StoreError)
    -> Inspection
  {
    guard let size = try fileSystem.fileSize(candidate) else { return .missing }
    guard size <= options.maxFileSize else {
      return .unusable(reason: "\(size) bytes is over the limit of \(options.maxFileSize)")
    }
    guard let stored = try fileSystem.readWholeFile(candidate) else { return .missing }
    var payload = stored
    if options.envelope {
      do throws(StoreError) {
        payload = try AtomicFile.openEnvelope(stored)
      } catch {
        return .unusable(reason: error.message)
      }
    }
    if let validate, !validate(payload) {
      return .unusable(reason: "rejected by validation")
    }
    return .usable(payload)
  }

  /// Renames `candidate` to `<path>.corrupt-N` (N one above the highest present), syncs the
  /// directory, and removes the oldest quarantined files beyond ``Options/quarantineLimit``.
  func quarantine(_ candidate: String, reason: String) throws(StoreError) {
    let directory = StorePath.directory(of: path)
    let prefix = StorePath.name(of: path) + ".corrupt-"
    var numbers = try fileSystem.list(directory).compactMap { name -> Int? in
      guard name.hasPrefix(prefix) else { return nil }
      return Int(name.dropFirst(prefix.count))
    }.sorted()
    let next = (numbers.last ?? 0) + 1
    let destination = path + ".corrupt-\(next)"
    try fileSystem.rename(candidate, to: destination)
    numbers.append(next)
    var pruned: [String] = []
    while numbers.count > options.quarantineLimit {
      let oldest = path + ".corrupt-\(numbers.removeFirst())"
      try fileSystem.remove(oldest)
      pruned.append(StorePath.name(of: oldest))
    }
    try fileSystem.syncDirectory(directory)
    var fields = [("path", candidate), ("quarantinedAs", destination), ("reason", reason)]
    if !pruned.isEmpty { fields.append(("pruned", pruned.joined(separator: ","))) }
    events.emit(
      StoreEvents.corruptQuarantined, fields)
  }
}
