import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stoic demo`: AtomicFile at work on the real disk, step by step.
///
/// Writes two generations of a small settings document, damages the current file the way a
/// bad sector or a stray write would, and reads it back: the damaged file is quarantined
/// (never deleted) and the previous generation is returned. Every event the store emits is
/// printed as it happens.
struct DemoCommand {
  let directory: String?

  func run() -> Int32 {
    do throws(StoreError) {
      try perform()
      return 0
    } catch {
      Console.error("stoic demo: \(error)")
      return 1
    }
  }

  private func perform() throws(StoreError) {
    let folder: String
    if let directory { folder = directory } else { folder = try Self.makeTemporaryDirectory() }
    let events = EventSink { event in Console.line("    event: \(event)") }
    let fileSystem = PosixFileSystem(events: events)
    try fileSystem.createDirectory(folder)
    let path = Path.join(folder, "settings.json")
    let file = AtomicFile(path: path, fileSystem: fileSystem, events: events)
    let isJSONObject: ([UInt8]) -> Bool = { $0.first == UInt8(ascii: "{") }

    Console.line("Stoic demo: an atomic, checksummed file with a previous generation")
    Console.line("  directory: \(folder)")
    Console.line()

    let first = #"{"theme":"dark","syncInterval":60}"#
    Console.line("1. write generation 1: \(first)")
    try file.write(Array(first.utf8), validate: isJSONObject)
    try listing(fileSystem, folder)

    let second = #"{"theme":"light","syncInterval":30}"#
    Console.line("2. write generation 2: \(second)")
    Console.line(
      "   (temp file, full sync, generation 1 kept as .previous, rename, directory sync)")
    try file.write(Array(second.utf8), validate: isJSONObject)
    try listing(fileSystem, folder)

    Console.line("3. read back")
    try show(file.read(validate: isJSONObject))

    Console.line("4. damage the current file: flip one bit in its payload")
    let handle = try fileSystem.open(path, .readWrite)
    let offset = UInt64(AtomicFile.envelopeHeaderSize + 3)
    var byte = try fileSystem.read(handle, count: 1, at: offset)
    byte[0] ^= 0x04
    try fileSystem.write(handle, byte, at: offset)
    try fileSystem.sync(handle)
    try fileSystem.close(handle)
    Console.line()

    Console.line("5. read back: the checksum catches the flip")
    try show(file.read(validate: isJSONObject))
    try listing(fileSystem, folder)

    Console.line("6. write generation 3 over the recovered state")
    let third = #"{"theme":"light","syncInterval":15}"#
    try file.write(Array(third.utf8), validate: isJSONObject)
    try show(file.read(validate: isJSONObject))
    try listing(fileSystem, folder)

    Console.line("Nothing was lost: the damaged bytes are kept aside as settings.json.corrupt-1,")
    Console.line("and every read returned a whole generation.")
  }

  private func show(_ result: AtomicFile.ReadResult?) {
    guard let result else {
      Console.line("   nothing stored")
      return
    }
    let source = result.source == .current ? "current file" : "previous generation"
    Console.line("   read \(String(decoding: result.bytes, as: UTF8.self)) from the \(source)")
    Console.line()
  }

  private func listing(_ fileSystem: PosixFileSystem, _ folder: String) throws(StoreError) {
    for name in try fileSystem.list(folder) {
      let size = try fileSystem.fileSize(Path.join(folder, name)) ?? 0
      Console.line("   \(name)  \(size) bytes")
    }
    Console.line()
  }

  private static func makeTemporaryDirectory() throws(StoreError) -> String {
    var template = Array("/tmp/stoic-demo-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
      guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
      return String(cString: base)
    }
    guard let made else {
      throw StoreError.system("mkdtemp", Errno(rawValue: errno), path: "/tmp")
    }
    return made
  }
}
