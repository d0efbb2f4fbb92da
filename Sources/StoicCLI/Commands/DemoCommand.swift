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
struct DemoCommand: StoicCommand {
  static let spec = CommandSpec(
    name: "demo",
    summary:
      "Show crash-safe storage at work: write a file atomically, damage it, and read it back "
      + "through the previous generation and quarantine.",
    options: [
      .value(
        "directory", valueName: "DIR",
        help: "Where to write (created if missing); a new temporary directory by default.")
    ],
    details: "exit status: 0 done, 1 a storage error (printed), 64 usage.")

  let directory: String?
  let console: Console

  @MainActor
  static func run(_ command: ParsedCommand, console: Console) async throws -> ExitStatus {
    let demo = DemoCommand(directory: command.value("directory"), console: console)
    do throws(StoreError) {
      try demo.perform()
      return .success
    } catch {
      console.error("stoic demo: \(error)")
      return .damage
    }
  }

  private func perform() throws(StoreError) {
    let folder: String
    if let directory { folder = directory } else { folder = try Self.makeTemporaryDirectory() }
    let events = EventSink { [console] event in console.line("    event: \(event)") }
    let fileSystem = PosixFileSystem(events: events)
    try fileSystem.createDirectory(folder)
    let path = StorePath.join(folder, "settings.json")
    let file = AtomicFile(path: path, fileSystem: fileSystem, events: events)
    let isJSONObject: ([UInt8]) -> Bool = { $0.first == UInt8(ascii: "{") }

    console.line("Stoic demo: an atomic, checksummed file with a previous generation")
    console.line("  directory: \(folder)")
    console.line()

    let first = #"{"theme":"dark","syncInterval":60}"#
    console.line("1. write generation 1: \(first)")
    try file.write(Array(first.utf8), validate: isJSONObject)
    try listing(fileSystem, folder)

    let second = #"{"theme":"light","syncInterval":30}"#
    console.line("2. write generation 2: \(second)")
    console.line(
      "   (temp file, full sync, generation 1 kept as .previous, rename, directory sync)")
    try file.write(Array(second.utf8), validate: isJSONObject)
    try listing(fileSystem, folder)

    console.line("3. read back")
    try show(file.read(validate: isJSONObject))

    console.line("4. damage the current file: flip one bit in its payload")
    let handle = try fileSystem.open(path, .readWrite)
    let offset = UInt64(AtomicFile.envelopeHeaderSize + 3)
    var byte = try fileSystem.read(handle, count: 1, at: offset)
    byte[0] ^= 0x04
    try fileSystem.write(handle, byte, at: offset)
    try fileSystem.sync(handle)
    try fileSystem.close(handle)
    console.line()

    console.line("5. read back: the checksum catches the flip")
    try show(file.read(validate: isJSONObject))
    try listing(fileSystem, folder)

    console.line("6. write generation 3 over the recovered state")
    let third = #"{"theme":"light","syncInterval":15}"#
    try file.write(Array(third.utf8), validate: isJSONObject)
    try show(file.read(validate: isJSONObject))
    try listing(fileSystem, folder)

    console.line("Nothing was lost: the damaged bytes are kept aside as settings.json.corrupt-1,")
    console.line("and every read returned a whole generation.")
  }

  private func show(_ result: AtomicFile.ReadResult?) {
    guard let result else {
      console.line("   nothing stored")
      return
    }
    let source = result.source == .current ? "current file" : "previous generation"
    console.line("   read \(String(decoding: result.bytes, as: UTF8.self)) from the \(source)")
    console.line()
  }

  private func listing(_ fileSystem: PosixFileSystem, _ folder: String) throws(StoreError) {
    for name in try fileSystem.list(folder) {
      let size = try fileSystem.fileSize(StorePath.join(folder, name)) ?? 0
      console.line("   \(name)  \(size) bytes")
    }
    console.line()
  }

  private static func makeTemporaryDirectory() throws(StoreError) -> String {
    var template = Array("/tmp/stoic-demo-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
      guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
      return String(cString: base)
    }
    guard let made else {
      throw StoreError.system("mkdtemp", StoreErrno(rawValue: errno), path: "/tmp")
    }
    return made
  }
}
