import StoicStore

extension SimulatedDiskState {
  /// `posix_fallocate` + `mmap(MAP_SHARED)`: extends the file to `length` with a pending
  /// zero-extending truncate if it is shorter, and registers a mapping of the inode.
  ///
  /// - Returns: The mapping's number.
  mutating func map(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) -> Int {
    let file = try reserveForMapping(handle, length: length)
    let number = nextMapping
    nextMapping += 1
    mappings[number] = (file.inode, length, 0)
    return number
  }

  /// What `posix_fallocate` + `mmap` check and do before mapping: the handle open for writing,
  /// a length above 0, the `noSpaceOnMap` fault, and a pending zero-extending truncate when the
  /// file is shorter than `length` (memory mappings' changed pages are written back first).
  ///
  /// - Returns: The open file.
  mutating func reserveForMapping(_ handle: StoreFileHandle, length: UInt64) throws(StoreError)
    -> OpenFile
  {
    let file = try openFile(handle, "mmap")
    guard file.writable else {
      throw StoreError.system("mmap", .permissionDenied, path: handle.path)
    }
    guard length > 0 else { throw StoreError.system("mmap", .invalidArgument, path: handle.path) }
    let size = try checkedOffset(length, "posix_fallocate", path: handle.path)
    if consumeMapFault() {
      throw StoreError.system("posix_fallocate", .noSpace, path: handle.path)
    }
    captureMemory(inode: file.inode)
    if (contents[file.inode]?.count ?? 0) < size {
      appendPending(.truncate(size: size), to: file.inode)
      recordOperation()
    }
    return file
  }

  /// A `memcpy` into mapping `number`: a pending write, like `pwrite` (a crash may lose, tear
  /// or keep it until the next sync of the file), which can never fail for lack of space.
  ///
  /// - Throws: ``StoreError/Code/closed`` for a closed mapping; ``StoreError/Code/io`` (the
  ///   `SIGBUS` a real process would die of) when the bytes lie beyond the file's current end.
  mutating func writeMapped(_ number: Int, _ bytes: [UInt8], at offset: UInt64, path: String)
    throws(StoreError)
  {
    guard let mapping = mappings[number] else {
      throw StoreError(.closed, "the mapping of \(path) is closed", path: path)
    }
    guard offset >= mapping.released else {
      throw StoreError(
        .invalidArgument,
        "mapped write at \(offset) below the released bound \(mapping.released)", path: path)
    }
    let size = UInt64(contents[mapping.inode]?.count ?? 0)
    guard offset <= size, UInt64(bytes.count) <= size - offset else {
      throw StoreError(
        .io,
        "mapped write at \(offset) of \(bytes.count) bytes beyond the end (\(size)) of the file: "
          + "a real process would be killed by SIGBUS",
        path: path)
    }
    guard !bytes.isEmpty else { return }
    appendPending(.write(offset: Int(offset), bytes: bytes), to: mapping.inode)
    recordOperation()
  }

  /// `munmap` of the pages of mapping `number` below `bound` (a multiple of the page size):
  /// later writes below it are refused. Nothing on the disk changes, so it is no crash point.
  ///
  /// - Throws: ``StoreError/Code/closed`` for a closed mapping.
  mutating func release(_ number: Int, below bound: UInt64, path: String) throws(StoreError) {
    guard let mapping = mappings[number] else {
      throw StoreError(.closed, "the mapping of \(path) is closed", path: path)
    }
    mappings[number]?.released = max(mapping.released, bound)
  }

  /// `munmap`: forgets the mapping.
  mutating func unmap(_ number: Int) {
    mappings[number] = nil
    collectGarbage()
  }
}
