extension Array where Element == UInt8 {
  /// `withUnsafeBytes` for bodies that throw ``StoreError``: the standard one is `rethrows`,
  /// which erases the typed error.
  @inlinable
  package func withStoreBytes<Result>(
    _ body: (UnsafeRawBufferPointer) throws(StoreError) -> Result
  ) throws(StoreError) -> Result {
    let outcome: Swift.Result<Result, StoreError> = withUnsafeBytes { buffer in
      do throws(StoreError) {
        return .success(try body(buffer))
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }
}
