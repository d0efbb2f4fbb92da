import CStoicAtomics
import StoicStore
import StoicTesting
import Testing

/// The simulated disk's memory mappings: stores are the running process's view at once, and
/// become pending writes, one per changed page, whenever the kernel could write them back (a
/// sync of any file, a read of the file, closing the mapping); a crash keeps, loses or tears
/// each until the file is synced.
@Suite("SimulatedFileSystem memory mappings")
struct SimulatedMemoryMappingTests {
  static let path = "live"

  /// A disk with a durable 8 KiB file of zeros, mapped whole.
  static func mapped() throws -> (SimulatedFileSystem, StoreFileHandle, any MemoryMapping) {
    let disk = SimulatedFileSystem()
    disk.setDurableContents(path, [UInt8](repeating: 0, count: 8192))
    let handle = try disk.open(path, .readWrite)
    return (disk, handle, try disk.mapMemory(handle, length: 8192))
  }

  @Test("a store is read back at once, and is durable only after a sync")
  func storeThenSync() throws {
    let (disk, handle, mapping) = try Self.mapped()
    #expect(UInt(bitPattern: mapping.baseAddress) % 4096 == 0)
    stoic_atomic_add(mapping.baseAddress + 8, 7)
    #expect(try disk.read(handle, count: 1, at: 8) == [7])
    #expect(disk.durableContents(Self.path)?[8] == 0)
    try disk.sync(handle)
    #expect(disk.durableContents(Self.path)?[8] == 7)
    try disk.close(handle)
    _ = mapping
  }

  @Test("unsynced pages are lost, kept or torn by a crash, each page on its own")
  func crashImages() throws {
    let (disk, handle, mapping) = try Self.mapped()
    stoic_atomic_store(mapping.baseAddress + 0, 0x1111)
    stoic_atomic_store(mapping.baseAddress + 4096, 0x2222)
    let other = try disk.open("other", .createOrOpen)
    try disk.sync(other)  // the kernel may write the pages back: two pending writes
    #expect(disk.pendingOperationCount == 3)  // two pages and the create of "other"
    let images = disk.crashImages(limit: 200)
    let firstWords = Set(images.compactMap { $0.files[Self.path].map { Array($0[0..<2]) } })
    let secondWords = Set(images.compactMap { $0.files[Self.path].map { Array($0[4096..<4098]) } })
    #expect(firstWords.isSuperset(of: [[0, 0], [0x11, 0x11], [0x11, 0]]))
    #expect(secondWords.isSuperset(of: [[0, 0], [0x22, 0x22]]))
    // Last synced contents, first page only, second page only: all allowed.
    let pairs = Set(
      images.compactMap { image in image.files[Self.path].map { [$0[0], $0[4096]] } })
    #expect(pairs.isSuperset(of: [[0, 0], [0x11, 0], [0, 0x22], [0x11, 0x22]]))
    try disk.close(handle)
    try disk.close(other)
    _ = mapping
  }

  @Test("closing the mapping writes its changed pages back; the buffer outlives close")
  func closeCaptures() throws {
    let (disk, handle, mapping) = try Self.mapped()
    stoic_atomic_store(mapping.baseAddress + 16, 5)
    try mapping.close()
    try mapping.close()
    stoic_atomic_store(mapping.baseAddress + 16, 9)  // after close: lost, not a crash
    #expect(disk.contents(Self.path)?[16] == 5)
    try disk.sync(handle)
    #expect(disk.durableContents(Self.path)?[16] == 5)
    try disk.close(handle)
  }

  @Test("a positional write into a mapped file reaches the mapped memory")
  func positionalWriteIsCoherent() throws {
    let (disk, handle, mapping) = try Self.mapped()
    stoic_atomic_store(mapping.baseAddress + 0, 1)
    try disk.write(handle, [9, 9], at: 100)
    #expect(mapping.baseAddress.load(fromByteOffset: 100, as: UInt8.self) == 9)
    #expect(disk.contents(Self.path)?[0] == 1)
    try disk.close(handle)
  }

  @Test("the mapping extends a short file with a pending truncate; faults and modes are errors")
  func extendsAndRefuses() throws {
    let disk = SimulatedFileSystem()
    let handle = try disk.open("new", .createOrOpen)
    let mapping = try disk.mapMemory(handle, length: 4096)
    #expect(try disk.size(handle) == 4096)
    #expect(mapping.length == 4096)
    let zero = try #require(throws: StoreError.self) { try disk.mapMemory(handle, length: 0) }
    #expect(zero.code == .invalidArgument)
    disk.inject(.noSpaceOnMap(nth: 1))
    let full = try #require(throws: StoreError.self) { try disk.mapMemory(handle, length: 8192) }
    #expect(full.code == .diskFull)
    let reader = try disk.open("new", .readOnly)
    #expect(throws: StoreError.self) { try disk.mapMemory(reader, length: 4096) }
    try disk.close(reader)
    try disk.close(handle)
  }
}
