/// Every disk a crash at one crash point can leave, as choices over the pending operations of
/// a ``DiskSnapshot``: each pending operation is a slot that is lost, kept, torn (a write
/// lands only a prefix) or garbled (a write lands pseudo-random bytes).
///
/// Operations of one file apply in order to its durable bytes; operations of one directory
/// apply in order to its durable names. Only files some image can name are considered.
struct CrashImageSpace: Sendable {
  /// A pending operation a crash decides about.
  struct Slot: Sendable {
    /// The file inode and index of a file operation, or the directory and index of a
    /// directory operation.
    enum Target: Sendable {
      case file(inode: Int, index: Int)
      case directory(path: String, index: Int)
    }
    let target: Target
    /// The write's length, for writes (they can tear and be garbled).
    let writeLength: Int?
    /// The seed of the write's garbage bytes.
    let garbageSeed: UInt64
  }

  /// What a crash did to one pending operation.
  enum Choice: Hashable, Sendable {
    case lost
    case kept
    case torn(Int)
    case garbage
  }

  /// The pending operations of one file or directory, and their slots.
  struct Group: Sendable {
    /// A directory's pending operations or a file's.
    enum Operations: Sendable {
      case directory([PendingDirectoryOperation])
      case file([PendingFileOperation])
    }
    let label: String
    let operations: Operations
    let slots: Range<Int>
  }

  let snapshot: DiskSnapshot
  let slots: [Slot]
  let groups: [Group]
  /// The group of each file with pending operations, by inode.
  let fileGroups: [Int: Int]

  /// The space of images of `snapshot`; `seed` determines garbage bytes.
  init(snapshot: DiskSnapshot, seed: UInt64) {
    self.snapshot = snapshot
    var slots: [Slot] = []
    var groups: [Group] = []
    var fileGroups: [Int: Int] = [:]
    let labels = CrashImageSpace.inodeLabels(snapshot)
    for directory in snapshot.pendingDirectoryOperations.keys.sorted() {
      let operations = snapshot.pendingDirectoryOperations[directory] ?? []
      guard !operations.isEmpty else { continue }
      let start = slots.count
      for index in operations.indices {
        slots.append(
          Slot(target: .directory(path: directory, index: index), writeLength: nil, garbageSeed: 0))
      }
      groups.append(
        Group(
          label: "directory \(directory)", operations: .directory(operations),
          slots: start..<slots.count))
    }
    for inode in snapshot.reachableInodes.sorted() {
      let pending = snapshot.inodes[inode]?.pending ?? []
      guard !pending.isEmpty else { continue }
      let start = slots.count
      for (index, operation) in pending.enumerated() {
        var length: Int?
        if case .write(_, let bytes) = operation { length = bytes.count }
        slots.append(
          Slot(
            target: .file(inode: inode, index: index), writeLength: length,
            garbageSeed: SplitMix64.mix(seed, inode, index)))
      }
      let name = labels[inode].map { " (\($0))" } ?? ""
      fileGroups[inode] = groups.count
      groups.append(
        Group(
          label: "inode \(inode)\(name)", operations: .file(pending), slots: start..<slots.count))
    }
    self.slots = slots
    self.groups = groups
    self.fileGroups = fileGroups
  }

  /// A name for each inode, for descriptions: its durable name, or the last name a pending
  /// create or rename gives it.
  private static func inodeLabels(_ snapshot: DiskSnapshot) -> [Int: String] {
    var labels: [Int: String] = [:]
    for (path, inode) in snapshot.durableNames { labels[inode] = path }
    for directory in snapshot.pendingDirectoryOperations.keys.sorted() {
      for operation in snapshot.pendingDirectoryOperations[directory] ?? [] {
        switch operation {
        case .create(let path, let inode): labels[inode] = path
        case .rename(_, let to, let inode): labels[inode] = to
        case .remove, .makeDirectory: break
        }
      }
    }
    return labels
  }

  /// The pending operation behind `slot`.
  func operation(_ slot: Slot) -> String {
    switch slot.target {
    case .file(let inode, let index):
      return snapshot.inodes[inode]?.pending[index].summary ?? "?"
    case .directory(let path, let index):
      return snapshot.pendingDirectoryOperations[path]?[index].summary ?? "?"
    }
  }

  /// The disk the choices leave: the durable directories with the kept made ones, each only
  /// where its parent is; durable names with the kept directory operations applied, where
  /// their directory is; each named file's durable bytes with its kept, torn or garbled
  /// operations applied.
  func materialize(_ choices: [Choice]) -> (files: [String: [UInt8]], directories: Set<String>) {
    var names = snapshot.durableNames
    var made = snapshot.directories.subtracting(snapshot.pendingDirectories)
    for group in groups {
      guard case .directory(let operations) = group.operations else { continue }
      var position = group.slots.lowerBound
      for operation in operations {
        if choices[position] != .lost {
          operation.apply(to: &names)
          if case .makeDirectory(let path) = operation { made.insert(path) }
        }
        position += 1
      }
    }
    let directories = DiskSnapshot.reachable(made)
    var files: [String: [UInt8]] = [:]
    for (path, inode) in names where directories.contains(SimulatedPath.parent(of: path)) {
      guard let node = snapshot.inodes[inode] else {
        files[path] = []
        continue
      }
      var bytes = node.durable
      if let index = fileGroups[inode], case .file(let operations) = groups[index].operations {
        var position = groups[index].slots.lowerBound
        for operation in operations {
          let choice = choices[position]
          if choice != .lost {
            apply(operation, choice, garbageSeed: slots[position].garbageSeed, to: &bytes)
          }
          position += 1
        }
      }
      files[path] = bytes
    }
    return (files, directories)
  }

  /// Applies one pending file operation as the choice says.
  private func apply(
    _ operation: PendingFileOperation, _ choice: Choice, garbageSeed: UInt64,
    to bytes: inout [UInt8]
  ) {
    switch (operation, choice) {
    case (_, .lost):
      return
    case (.write(let offset, let data), .torn(let landed)):
      PendingFileOperation.write(data, count: landed, at: offset, into: &bytes)
    case (.write(let offset, let data), .garbage):
      let garbage = SplitMix64.bytes(count: data.count, seed: garbageSeed)
      PendingFileOperation.write(garbage, count: garbage.count, at: offset, into: &bytes)
    default:
      operation.apply(to: &bytes)
    }
  }
}
