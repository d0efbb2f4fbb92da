import StoicStore

/// The live files of a metrics spool: the extents holding every series' running aggregates,
/// how a reopened spool decides whether to trust them, and how new series get room in them
/// (layout: ``MetricsLiveFormat``).
///
/// ## Trust at open
///
/// A store into the live file is in the kernel's page cache the moment it is made. If only the
/// process ended (SIGKILL, a crash, a normal exit), the page cache, and so the file, holds every
/// store it made; if the machine restarted (power loss, kernel panic), the file holds whatever
/// the kernel had written back by then: any page may be stale or torn. The header of `live-0.map`
/// records the boot identity (``MetricsBootIdentity``) of the machine when the extents were
/// made, so open tells the two apart:
///
/// - Same boot: the extents are adopted as they are, every header and record checked (CRC32C
///   over the header and each series' identity, lengths, cell counts). Nothing is lost. If a
///   check fails (damage no crash of a process can cause), every extent is quarantined
///   (renamed `live-<n>.map.corrupt-<k>`, never deleted) and the spool continues as after a
///   restart of the machine.
/// - Another boot, an unreadable or missing `live-0.map`, or no boot identity on this platform:
///   the extents are set aside (renamed `live-<n>.map.stale`, replacing the previous ones set
///   aside) and new ones are built from the journal's last synced samples. What changed after
///   the last synced flush is lost: the power-loss bound.
///
/// A rebuild writes every extent before the header of `live-0.map`, and a new extent is made
/// under a temporary name and renamed into place once its header is written, so a crash at any
/// point leaves either extents that check or ones that are set aside and rebuilt again. The live
/// files are never synced: nothing after a restart of the machine reads their values.
///
/// Mutated only under the spool's registry lock.
final class MetricsLiveFile: @unchecked Sendable {
  let directory: String
  let fileSystem: any FileSystem
  let extentSize: Int
  let boot: [UInt8]
  private var extents: [MetricsLiveExtent]

  /// A series found in the extents (adopted or rebuilt).
  struct Loaded {
    var key: MetricSeriesKey
    var cells: UnsafeMutableRawPointer
    var extent: MetricsLiveExtent
  }

  /// How open went.
  enum Opening: Equatable {
    /// The extents of this boot were adopted as they were.
    case adopted
    /// New extents were built from the journal's last synced samples, and why.
    case rebuilt(reason: String)
    /// A new spool: no live file and no sample yet, so nothing was rebuilt.
    case created
  }

  private init(
    directory: String, fileSystem: any FileSystem, extentSize: Int, boot: [UInt8],
    extents: [MetricsLiveExtent]
  ) {
    self.directory = directory
    self.fileSystem = fileSystem
    self.extentSize = extentSize
    self.boot = boot
    self.extents = extents
  }

  /// Opens the live files in `directory` as the rules above say.
  ///
  /// - Parameters:
  ///   - boot: This boot's identity; nil where the platform has none (never adopts).
  ///   - lastSynced: The journal's last sample of every series, read only for a rebuild.
  /// - Throws: The file system's errors (a rebuild that cannot create, map or rename files).
  static func open(
    directory: String, fileSystem: any FileSystem, extentSize: Int, boot: [UInt8]?,
    events: EventSink, lastSynced: () throws(StoreError) -> [MetricSample]
  ) throws(StoreError) -> (MetricsLiveFile, [Loaded], Opening) {
    let stored = MetricsLiveFormat.normalizedBoot(boot ?? [])
    let file = MetricsLiveFile(
      directory: directory, fileSystem: fileSystem, extentSize: extentSize, boot: stored,
      extents: [])
    let names = try fileSystem.list(directory)
    for name in names where name.hasPrefix("live-") && name.hasSuffix(".map.tmp") {
      try fileSystem.remove(StorePath.join(directory, name))
    }
    let indices = names.compactMap(MetricsLiveExtent.index(of:)).sorted()
    var reason = indices.isEmpty ? "no live file" : "no boot identity on this platform"
    if boot != nil, !indices.isEmpty {
      switch try file.adopt(indices) {
      case .adopted(let loaded):
        return (file, loaded, .adopted)
      case .stale(let why):
        reason = why
        try file.setAside(indices, suffix: ".stale")
      case .damaged(let why):
        reason = why
        try file.quarantine(indices, reason: why, events: events)
      }
    } else if !indices.isEmpty {
      try file.setAside(indices, suffix: ".stale")
    }
    let loaded = try file.rebuild(from: try lastSynced())
    if indices.isEmpty && loaded.isEmpty { return (file, loaded, .created) }
    return (file, loaded, .rebuilt(reason: reason))
  }

  // MARK: Adopting

  private enum Adoption {
    case adopted([Loaded])
    case stale(String)
    case damaged(String)
  }

  /// Maps and checks the extents of this boot.
  private func adopt(_ indices: [Int]) throws(StoreError) -> Adoption {
    guard indices.first == 0 else { return .stale("live-0.map is missing") }
    var loaded: [Loaded] = []
    var keys = Set<MetricSeriesKey>()
    for (position, index) in indices.enumerated() {
      let path = StorePath.join(directory, MetricsLiveExtent.name(index))
      guard index == position else { return .damaged("\(path) follows a missing extent") }
      let handle = try fileSystem.open(path, .readWrite)
      defer { try? fileSystem.close(handle) }
      let size = try fileSystem.size(handle)
      let header = try fileSystem.read(handle, count: MetricsLiveFormat.headerSize, at: 0)
      switch MetricsLiveFormat.parseHeader(header, fileSize: size) {
      case .valid(let storedIndex, _, let storedBoot) where storedBoot == boot:
        guard storedIndex == UInt32(index) else {
          return .damaged("\(path) says it is extent \(storedIndex)")
        }
      case .valid:
        if index == 0 { return .stale("the live file was written before the machine restarted") }
        return .damaged("\(path) was written in another boot than live-0.map")
      case .blank, .invalid, .newerVersion:
        if index == 0 { return .stale("the header of \(path) does not check") }
        return .damaged("the header of \(path) does not check")
      }
      let extent = MetricsLiveExtent(
        index: index, mapping: try fileSystem.mapMemory(handle, length: size))
      guard let records = Self.records(of: extent) else {
        return .damaged("a series record of \(path) does not check")
      }
      for record in records {
        guard keys.insert(record.key).inserted else {
          return .damaged("\(path) holds a series twice")
        }
        loaded.append(
          Loaded(key: record.key, cells: extent.base + record.cellsOffset, extent: extent))
      }
      extents.append(extent)
    }
    return .adopted(loaded)
  }

  /// Every published record of `extent`, or nil if one does not check.
  private static func records(of extent: MetricsLiveExtent) -> [MetricsLiveFormat.StoredRecord]? {
    let used = MetricsLiveFormat.loadUsed(extent.base)
    guard used >= UInt64(MetricsLiveFormat.headerSize), used <= UInt64(extent.size) else {
      return nil
    }
    let memory = UnsafeRawBufferPointer(start: extent.base, count: extent.size)
    var records: [MetricsLiveFormat.StoredRecord] = []
    var offset = MetricsLiveFormat.headerSize
    while offset < Int(used) {
      guard let record = MetricsLiveFormat.parseRecord(memory, at: offset, used: Int(used)) else {
        return nil
      }
      records.append(record)
      offset = record.end
    }
    return records
  }

  // MARK: Setting aside

  /// Renames every extent to `<name><suffix>`, replacing what is there.
  private func setAside(_ indices: [Int], suffix: String) throws(StoreError) {
    extents = []
    for index in indices {
      let path = StorePath.join(directory, MetricsLiveExtent.name(index))
      try fileSystem.rename(path, to: path + suffix)
    }
  }

  /// Renames every extent to `<name>.corrupt-<k>` (k one above the highest present), never
  /// replacing or deleting one, and reports each.
  private func quarantine(_ indices: [Int], reason: String, events: EventSink) throws(StoreError) {
    extents = []
    let names = try fileSystem.list(directory)
    for index in indices {
      let name = MetricsLiveExtent.name(index)
      let prefix = name + ".corrupt-"
      let highest =
        names.compactMap { entry -> Int? in
          entry.hasPrefix(prefix) ? Int(entry.dropFirst(prefix.count)) : nil
        }.max() ?? 0
      let path = StorePath.join(directory, name)
      let destination = path + ".corrupt-\(highest + 1)"
      try fileSystem.rename(path, to: destination)
      events.emit(
        SpoolEvents.metricsLiveFileQuarantined,
        [("path", path), ("quarantinedAs", destination), ("reason", reason)])
    }
  }

  // MARK: Rebuilding

  /// Builds new extents holding a series for each of `samples`, marked as sampled; the header
  /// of `live-0.map` is written last.
  private func rebuild(from samples: [MetricSample]) throws(StoreError) -> [Loaded] {
    var plans: [[(key: MetricSeriesKey, record: [UInt8])]] = [[]]
    var used = MetricsLiveFormat.headerSize
    for sample in samples {
      let key = MetricSeriesKey(sample)
      let record = MetricsLiveFormat.record(
        key: key, cells: MetricsSeries.cells(continuing: sample))
      guard record.count <= extentSize - MetricsLiveFormat.headerSize else { continue }
      if used + record.count > extentSize {
        plans.append([])
        used = MetricsLiveFormat.headerSize
      }
      plans[plans.count - 1].append((key, record))
      used += record.count
    }
    var built: [MetricsLiveExtent] = []
    var loaded: [Loaded] = []
    for index in plans.indices.reversed() {
      let path = StorePath.join(directory, MetricsLiveExtent.name(index))
      let extent = try makeExtent(at: path, index: index)
      var offset = MetricsLiveFormat.headerSize
      var extentLoaded: [Loaded] = []
      for (key, record) in plans[index] {
        store(record, into: extent, at: offset)
        extentLoaded.append(
          Loaded(
            key: key, cells: extent.base + offset + MetricsLiveFormat.recordHeaderSize,
            extent: extent))
        offset += record.count
      }
      MetricsLiveFormat.storeUsed(extent.base, UInt64(offset))
      writeHeader(of: extent)
      built.insert(extent, at: 0)
      loaded.insert(contentsOf: extentLoaded, at: 0)
    }
    extents = built
    return loaded
  }

  /// Creates (or empties) the file at `path` and maps it, zeros.
  private func makeExtent(at path: String, index: Int) throws(StoreError) -> MetricsLiveExtent {
    let handle = try fileSystem.open(path, .createOrOpen)
    defer { try? fileSystem.close(handle) }
    try fileSystem.truncate(handle, to: 0)
    return MetricsLiveExtent(
      index: index, mapping: try fileSystem.mapMemory(handle, length: UInt64(extentSize)))
  }

  /// Stores the header's checked fields (everything before `used`).
  private func writeHeader(of extent: MetricsLiveExtent) {
    let header = MetricsLiveFormat.header(
      index: UInt32(extent.index), extentSize: UInt64(extent.size), boot: boot)
    store(Array(header[..<MetricsLiveFormat.usedOffset]), into: extent, at: 0)
  }

  private func store(_ bytes: [UInt8], into extent: MetricsLiveExtent, at offset: Int) {
    bytes.withUnsafeBytes { source in
      if let origin = source.baseAddress {
        (extent.base + offset).copyMemory(from: origin, byteCount: source.count)
      }
    }
  }

  // MARK: Allocating

  /// Stores a new series record holding `cells` and publishes it; adds an extent when the last
  /// one is full.
  ///
  /// - Returns: The record's first cell and its extent.
  /// - Throws: ``StoreError/Code/invalidArgument`` for a record larger than an extent; the file
  ///   system's errors when a new extent cannot be made (``StoreError/Code/diskFull``).
  func allocate(key: MetricSeriesKey, cells: [UInt64]) throws(StoreError)
    -> (UnsafeMutableRawPointer, MetricsLiveExtent)
  {
    let record = MetricsLiveFormat.record(key: key, cells: cells)
    guard record.count <= extentSize - MetricsLiveFormat.headerSize else {
      throw StoreError(
        .invalidArgument, "a series record of \(record.count) bytes exceeds the live file",
        path: directory)
    }
    var extent: MetricsLiveExtent
    if let last = extents.last {
      extent = last
    } else {
      extent = try addExtent()
    }
    var used = Int(MetricsLiveFormat.loadUsed(extent.base))
    if used + record.count > extent.size {
      extent = try addExtent()
      used = MetricsLiveFormat.headerSize
    }
    store(record, into: extent, at: used)
    MetricsLiveFormat.storeUsed(extent.base, UInt64(used + record.count))
    return (extent.base + used + MetricsLiveFormat.recordHeaderSize, extent)
  }

  /// Makes the next extent under a temporary name, writes its header, and renames it into
  /// place.
  private func addExtent() throws(StoreError) -> MetricsLiveExtent {
    let index = extents.count
    let path = StorePath.join(directory, MetricsLiveExtent.name(index))
    let extent = try makeExtent(at: path + ".tmp", index: index)
    MetricsLiveFormat.storeUsed(extent.base, UInt64(MetricsLiveFormat.headerSize))
    writeHeader(of: extent)
    try fileSystem.rename(path + ".tmp", to: path)
    extents.append(extent)
    return extent
  }
}

/// One live file of a metrics spool (`live-<n>.map`), mapped: the memory of its series' cells.
/// Series keep their extent, so its memory stays mapped while any handle can store into it.
final class MetricsLiveExtent: Sendable {
  /// `n` of `live-<n>.map`.
  let index: Int
  let mapping: any MemoryMapping

  init(index: Int, mapping: any MemoryMapping) {
    self.index = index
    self.mapping = mapping
  }

  /// The mapped header's first byte.
  var base: UnsafeMutableRawPointer { mapping.baseAddress }

  /// The extent's size in bytes.
  var size: Int { Int(mapping.length) }

  /// The file name of extent `index`.
  static func name(_ index: Int) -> String { "live-\(index).map" }

  /// The index `name` is the live file of, or nil for any other name.
  static func index(of name: String) -> Int? {
    guard name.hasPrefix("live-"), name.hasSuffix(".map") else { return nil }
    let digits = name.dropFirst("live-".count).dropLast(".map".count)
    guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII) else { return nil }
    guard let index = Int(digits), String(index) == digits else { return nil }
    return index
  }
}
