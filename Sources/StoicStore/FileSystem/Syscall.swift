#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one wrapper every C library call of ``PosixFileSystem`` goes through.
///
/// Modelled on swift-system's `valueOrErrno` and `retryingOnInterrupt`: the call is made, a
/// failure (`-1`, or `NULL` for the calls that return a pointer) captures `errno` at once as an
/// ``StoreErrno``, `EINTR` restarts the call, and any other failure becomes
/// ``StoreError/system(_:_:path:file:line:)`` naming the call, the errno and the path, so every
/// error a caller sees says what was called on what.
///
/// `close` is the one call that must not be restarted (on Linux the descriptor is released even
/// when `close` reports `EINTR`, and a retry could close a descriptor another thread has just
/// been given); it passes `restartingOnInterrupt: false`.
internal enum Syscall {
  /// What a call returned: its value, or the errno it failed with.
  enum Outcome<Value> {
    /// The call succeeded with this value.
    case success(Value)
    /// The call failed with this errno.
    case failure(StoreErrno)
  }

  /// Calls `body`, restarting it while it fails with `EINTR`.
  ///
  /// - Returns: The call's result, or the errno it failed with. Callers that treat some errno
  ///   as an answer rather than an error (`ENOENT` from `stat`, `EEXIST` from `mkdir`,
  ///   `EWOULDBLOCK` from `flock`) switch on this.
  static func result<Value: FixedWidthInteger & SignedInteger>(
    restartingOnInterrupt restart: Bool = true,
    _ body: () -> Value
  ) -> Outcome<Value> {
    while true {
      let value = body()
      guard value == -1 else { return .success(value) }
      let error = StoreErrno.current
      if restart && error == .interrupted { continue }
      return .failure(error)
    }
  }

  /// Calls `body`, restarting it on `EINTR`, and throws the failure as a ``StoreError``.
  ///
  /// - Parameters:
  ///   - name: The call's name as it appears in the error (`"pwrite"`, `"fsync"`).
  ///   - path: The path the call was made on, for the error.
  /// - Returns: The call's (non-negative) result.
  /// - Throws: ``StoreError/system(_:_:path:file:line:)`` with the call's errno.
  @discardableResult
  static func run<Value: FixedWidthInteger & SignedInteger>(
    _ name: String,
    path: String?,
    file: String = #fileID,
    line: Int = #line,
    _ body: () -> Value
  ) throws(StoreError) -> Value {
    switch result(body) {
    case .success(let value):
      return value
    case .failure(let error):
      throw StoreError.system(name, error, path: path, file: file, line: line)
    }
  }

  /// Calls a function that returns a pointer, restarting it on `EINTR`.
  ///
  /// `errno` is cleared first, so that `NULL` with `errno` still 0 (the end of a `readdir`
  /// stream) is told apart from a failure.
  ///
  /// - Returns: The pointer, or `nil` when the call returned `NULL` without setting `errno`.
  /// - Throws: ``StoreError/system(_:_:path:file:line:)`` when it returned `NULL` with `errno`.
  static func pointer<Pointer>(
    _ name: String,
    path: String?,
    file: String = #fileID,
    line: Int = #line,
    _ body: () -> Pointer?
  ) throws(StoreError) -> Pointer? {
    while true {
      errno = 0
      if let value = body() { return value }
      let error = StoreErrno.current
      if error.rawValue == 0 { return nil }
      if error == .interrupted { continue }
      throw StoreError.system(name, error, path: path, file: file, line: line)
    }
  }

  /// Calls a function that reports failure by returning the errno itself (0 for success), as
  /// `posix_fallocate` does, restarting it on `EINTR`.
  ///
  /// - Throws: ``StoreError/system(_:_:path:file:line:)`` with the returned errno.
  static func runReturningErrno(
    _ name: String,
    path: String?,
    file: String = #fileID,
    line: Int = #line,
    _ body: () -> Int32
  ) throws(StoreError) {
    while true {
      let code = body()
      if code == 0 { return }
      let error = StoreErrno(rawValue: code)
      if error == .interrupted { continue }
      throw StoreError.system(name, error, path: path, file: file, line: line)
    }
  }

  /// Calls `mmap`, which fails with `MAP_FAILED` (all bits set) rather than `NULL`.
  ///
  /// - Returns: The mapped address.
  /// - Throws: ``StoreError/system(_:_:path:file:line:)`` with the call's errno.
  static func mapping(
    _ name: String,
    path: String?,
    file: String = #fileID,
    line: Int = #line,
    _ body: () -> UnsafeMutableRawPointer?
  ) throws(StoreError) -> UnsafeMutableRawPointer {
    let address = body()
    guard let address, UInt(bitPattern: address) != UInt.max else {
      throw StoreError.system(name, StoreErrno.current, path: path, file: file, line: line)
    }
    return address
  }
}
