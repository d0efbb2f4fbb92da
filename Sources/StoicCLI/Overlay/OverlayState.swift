import StoicStore

/// The in-memory side of an ``OverlayFileSystem``: which names it has changed, the files behind
/// them, the open handles and mappings, and a log of the changes in words.
struct OverlayState {
  /// What a name refers to in the overlay.
  enum Entry: Equatable {
    /// A file (its number in ``files``).
    case file(Int)
    /// A directory.
    case directory
    /// Something that is neither (a device, a FIFO): never opened.
    case special
    /// Removed in the overlay (or found missing on the real disk).
    case absent
  }

  /// An open handle.
  struct OpenFile {
    var file: Int
    var writable: Bool
    var path: String
  }

  /// Every name looked up or changed so far. A name not here has not been looked at yet and
  /// stands for whatever the real disk holds.
  var names: [String: Entry] = [:]
  var files: [Int: OverlayFile] = [:]
  var handles: [Int32: OpenFile] = [:]
  var mappings: [Int: (file: Int, length: UInt64, released: UInt64)] = [:]
  var nextFile = 0
  var nextDescriptor: Int32 = 1 << 20
  var nextMapping = 0
  /// What the code running over the overlay changed, in words, in order.
  var changes: [String] = []
  /// Real directories whose listing was taken (each file in it opened then): a name in one
  /// that is not in ``names`` did not exist when it was listed.
  var listed: Set<String> = []

  /// The entry for `path`, looking at the real disk the first time. Files found there are
  /// remembered with the size they had then.
  mutating func lookup(_ path: String) throws(StoreError) -> Entry {
    if let entry = names[path] { return entry }
    if listed.contains(OverlayPath.parent(of: path)) { return .absent }
    let entry: Entry
    let status = try FileStatus.of(path)
    switch status?.kind {
    case nil: entry = .absent
    case .directory?: entry = .directory
    case .other?: entry = .special
    case .regular?: entry = .file(add(OverlayFile(basePath: path, size: status?.size ?? 0)))
    }
    names[path] = entry
    return entry
  }

  /// Adds a file and returns its number.
  mutating func add(_ file: OverlayFile) -> Int {
    let number = nextFile
    nextFile += 1
    files[number] = file
    return number
  }

  /// Notes a change, unless it repeats the last one.
  mutating func note(_ change: String) {
    if changes.last != change { changes.append(change) }
  }

  /// The open handle, or `EBADF` from `call`.
  func openFile(_ handle: StoreFileHandle, _ call: String) throws(StoreError) -> OpenFile {
    guard let open = handles[handle.descriptor] else {
      throw StoreError.system(call, .badFileDescriptor, path: handle.path)
    }
    return open
  }

  /// The file `path` names, or the errno a real `call` would give.
  mutating func existingFile(_ path: String, _ call: String) throws(StoreError) -> Int {
    switch try lookup(path) {
    case .file(let number): return number
    case .directory: throw StoreError.system(call, .isDirectory, path: path)
    case .special: throw StoreError(.unsupported, "not a regular file", path: path, syscall: call)
    case .absent: throw StoreError.system(call, .noSuchFile, path: path)
    }
  }

  /// Throws `ENOENT` from `call` unless the directory holding `path` exists.
  mutating func requireParent(of path: String, _ call: String) throws(StoreError) {
    guard try lookup(OverlayPath.parent(of: path)) == .directory else {
      throw StoreError.system(call, .noSuchFile, path: path)
    }
  }

  /// Takes the listing of the real directory `directory`, once: every regular file in it is
  /// opened read-only at once and kept open, so the directory is seen as it was at that moment
  /// even while another process appends, compresses and removes segments. A file removed
  /// between the listing and its open makes the listing start again (a few times).
  mutating func takeListing(of directory: String) throws(StoreError) {
    guard !listed.contains(directory), try FileStatus.of(directory)?.kind == .directory else {
      return
    }
    var attempt = 0
    while true {
      attempt += 1
      var found: [String: Entry] = [:]
      var opened: [OverlayFile] = []
      var vanished = false
      for name in try PosixFileSystem().list(directory) {
        let path = StorePath.join(directory, name)
        if let known = names[path] {
          found[path] = known
          continue
        }
        switch try OverlayFile.openPinned(path) {
        case .file(let file):
          opened.append(file)
          found[path] = .file(-opened.count)
        case .directory: found[path] = .directory
        case .special: found[path] = .special
        case .vanished: vanished = true
        }
      }
      if vanished && attempt < 8 {
        for var file in opened { file.closeDescriptor(force: true) }
        continue
      }
      for (path, entry) in found {
        if case .file(let placeholder) = entry, placeholder < 0 {
          names[path] = .file(add(opened[-placeholder - 1]))
        } else {
          names[path] = entry
        }
      }
      listed.insert(directory)
      return
    }
  }

  /// Closes every real descriptor.
  mutating func closeAll() {
    for number in files.keys { files[number]?.closeDescriptor(force: true) }
  }
}
