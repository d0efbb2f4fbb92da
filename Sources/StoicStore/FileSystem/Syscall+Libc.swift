#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Syscall {
  // The C functions whose names ``PosixFileSystem``'s own methods (`open`, `close`, `rename`)
  // shadow inside its body, called here by their module's name. They are passed to
  // ``Syscall/run(_:path:file:line:_:)`` like every other call.

  /// `open(2)`.
  static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    #if canImport(Glibc)
      Glibc.open(path, flags, mode)
    #else
      Darwin.open(path, flags, mode)
    #endif
  }

  /// `close(2)`.
  static func close(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.close(descriptor)
    #else
      Darwin.close(descriptor)
    #endif
  }

  /// `rename(2)`.
  static func rename(_ source: String, _ destination: String) -> Int32 {
    #if canImport(Glibc)
      Glibc.rename(source, destination)
    #else
      Darwin.rename(source, destination)
    #endif
  }
}
