import StoicStore
import StoicTesting
import Synchronization
import Testing

@Suite("AtomicFile on the simulated disk")
struct AtomicFileTests {
  let fileSystem = SimulatedFileSystem()
  let recorder = EventRecorder()
  let path = "/data/settings.json"

  init() throws {
    try fileSystem.createDirectory("/data")
  }

  func file(_ options: AtomicFile.Options = AtomicFile.Options()) -> AtomicFile {
    AtomicFile(path: path, fileSystem: fileSystem, options: options, events: recorder.sink)
  }

  @Test("a write is read back from the current file, and the old one becomes .previous")
  func writeAndRead() throws {
    try file().write(Array("one".utf8))
    try file().write(Array("two".utf8))
    let result = try #require(try file().read())
    #expect(result.bytes == Array("two".utf8))
    #expect(result.source == .current)
    #expect(
      try AtomicFile.openEnvelope(#require(fileSystem.contents(path + ".previous")))
        == Array("one".utf8))
    #expect(fileSystem.contents(path + ".tmp") == nil)
  }

  @Test("a missing file reads as nil")
  func missing() throws {
    #expect(try file().read() == nil)
  }

  @Test(
    "each kind of damage is quarantined, reported, and the previous generation is read",
    arguments: ["empty", "truncated", "wrong magic", "wrong length", "bit flip", "garbage"])
  func damagedCurrentFallsBackToPrevious(damage: String) throws {
    try file().write(Array("one".utf8))
    try file().write(Array("two".utf8))
    let good = try #require(fileSystem.contents(path))
    let damaged: [UInt8] =
      switch damage {
      case "empty": []
      case "truncated": Array(good.prefix(good.count - 2))
      case "wrong magic": [0x53, 0x54, 0x41, 0x47] + good.dropFirst(4)
      case "wrong length": good + [0x20]
      case "bit flip": good.enumerated().map { $0.offset == 22 ? $0.element ^ 0x10 : $0.element }
      default: [UInt8](repeating: 0xA5, count: 40)
      }
    fileSystem.setDurableContents(path, damaged)

    let result = try #require(try file().read())
    #expect(result.bytes == Array("one".utf8))
    #expect(result.source == .previous)
    #expect(fileSystem.contents(path + ".corrupt-1") == damaged, "the damaged bytes are kept")
    #expect(recorder.names.contains(StoreEvents.corruptQuarantined.name))
    #expect(recorder.names.contains(StoreEvents.recoveredPrevious.name))
  }

  @Test("with nothing usable, read throws corrupt once, then returns nil; nothing is deleted")
  func corruptOnceThenNil() throws {
    try file().write(Array("one".utf8))
    try file().write(Array("two".utf8))
    fileSystem.damage(path, at: 21, with: [0xFF])
    fileSystem.damage(path + ".previous", at: 21, with: [0xFF])
    let error = #expect(throws: StoreError.self) { try file().read() }
    #expect(error?.code == .corrupt)
    #expect(error?.retryDecision == .stop)
    #expect(try file().read() == nil)
    #expect(fileSystem.contents(path + ".corrupt-1") != nil)
    #expect(fileSystem.contents(path + ".corrupt-2") != nil)
    try file().write(Array("three".utf8))
    #expect(try file().read()?.bytes == Array("three".utf8))
  }

  @Test("the validate closure decides what is usable")
  func validateClosure() throws {
    let isJSON: ([UInt8]) -> Bool = { $0.first == UInt8(ascii: "{") }
    try file().write(Array("{}".utf8))
    try file().write(Array("not json".utf8))
    let result = try #require(try file().read(validate: isJSON))
    #expect(result.bytes == Array("{}".utf8))
    #expect(result.source == .previous)
    #expect(fileSystem.contents(path + ".corrupt-1") != nil)
  }

  @Test("without the envelope, a plain file round trips and validation still quarantines")
  func plainFiles() throws {
    let options = AtomicFile.Options(envelope: false)
    try file(options).write(Array("{}".utf8))
    #expect(fileSystem.contents(path) == Array("{}".utf8))
    fileSystem.setDurableContents(path, Array("{broken".utf8))
    let isClosed: ([UInt8]) -> Bool = { $0.last == UInt8(ascii: "}") }
    let error = #expect(throws: StoreError.self) { try file(options).read(validate: isClosed) }
    #expect(error?.code == .corrupt)
    #expect(try file(options).read(validate: isClosed) == nil)
    #expect(fileSystem.contents(path + ".corrupt-1") == Array("{broken".utf8))
  }

  @Test("a corrupt current file is quarantined on write instead of becoming .previous")
  func corruptCurrentNeverDisplacesPrevious() throws {
    try file().write(Array("one".utf8))
    try file().write(Array("two".utf8))
    fileSystem.damage(path, at: 21, with: [0x00])
    try file().write(Array("three".utf8))
    #expect(
      try AtomicFile.openEnvelope(#require(fileSystem.contents(path + ".previous")))
        == Array("one".utf8))
    #expect(fileSystem.contents(path + ".corrupt-1") != nil)
  }

  @Test("only the newest quarantineLimit corrupt files are kept")
  func quarantineLimit() throws {
    let options = AtomicFile.Options(keepPrevious: false, quarantineLimit: 3)
    for round in 1...5 {
      fileSystem.setDurableContents(path, [UInt8(round)])
      _ = try? file(options).read()
    }
    let names = fileSystem.allPaths().filter { $0.contains(".corrupt-") }
    #expect(names == [path + ".corrupt-3", path + ".corrupt-4", path + ".corrupt-5"])
    #expect(fileSystem.contents(path + ".corrupt-5") == [5])
  }

  @Test("a stale temporary file is removed and reported before the next write")
  func staleTemporaryRemoved() throws {
    fileSystem.setDurableContents(path + ".tmp", Array("half a write".utf8))
    try file().write(Array("one".utf8))
    #expect(recorder.names == [StoreEvents.tempRemoved.name])
    #expect(try file().read()?.bytes == Array("one".utf8))
  }

  @Test("the preflight refuses a write before touching the disk when space is short")
  func preflightDiskFull() throws {
    try file().write(Array("one".utf8))
    let before = fileSystem.allPaths()
    fileSystem.inject(.freeSpace(100))
    let error = #expect(throws: StoreError.self) { try file().write(Array("two".utf8)) }
    #expect(error?.code == .diskFull)
    #expect(error?.retryDecision == .stop)
    #expect(fileSystem.allPaths() == before)
    #expect(try file().read()?.bytes == Array("one".utf8))
  }

  @Test("ENOSPC during the write leaves the old contents and no temporary file")
  func noSpaceDuringWrite() throws {
    try file().write(Array("one".utf8))
    fileSystem.inject(.noSpaceOnWrite(nth: 1, partialBytes: 5))
    let error = #expect(throws: StoreError.self) { try file().write(Array("two".utf8)) }
    #expect(error?.code == .diskFull)
    #expect(error?.errno == .noSpace)
    #expect(fileSystem.contents(path + ".tmp") == nil)
    fileSystem.clearFaults()
    #expect(try file().read()?.bytes == Array("one".utf8))
    try file().write(Array("two".utf8))
    #expect(try file().read()?.bytes == Array("two".utf8))
  }

  @Test("EIO on the full sync fails the write and leaves the old contents")
  func ioErrorOnSync() throws {
    try file().write(Array("one".utf8))
    fileSystem.inject(.ioErrorOnSync(nth: 1))
    let error = #expect(throws: StoreError.self) { try file().write(Array("two".utf8)) }
    #expect(error?.code == .io)
    #expect(error?.retryDecision == .stop)
    fileSystem.clearFaults()
    #expect(try file().read()?.bytes == Array("one".utf8))
  }

  @Test("EIO on read is thrown, not mistaken for corruption: nothing is quarantined")
  func ioErrorOnRead() throws {
    try file().write(Array("one".utf8))
    fileSystem.inject(.ioErrorOnRead(path: path))
    let error = #expect(throws: StoreError.self) { try file().read() }
    #expect(error?.code == .io)
    #expect(!fileSystem.allPaths().contains { $0.contains(".corrupt-") })
  }
}
