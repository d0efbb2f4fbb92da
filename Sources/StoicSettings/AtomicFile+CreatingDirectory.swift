import StoicStore

extension AtomicFile {
  /// Writes; when that fails because the file's directory is missing, creates the directory
  /// and any missing parents (private unless the file's permissions let others read it: see
  /// ``StoicStore/FilePermissions/forDirectory``), makes each of their names durable (syncs the
  /// parent of every level created) and writes again.
  func writeCreatingDirectory(_ bytes: [UInt8], validate: @escaping ([UInt8]) -> Bool)
    throws(StoreError)
  {
    do throws(StoreError) {
      try write(bytes, validate: validate)
    } catch {
      let directory = StorePath.directory(of: path)
      guard error.code == .notFound, !((try? fileSystem.exists(path)) ?? true) else { throw error }
      try fileSystem.createDirectoryDurably(
        directory, permissions: options.permissions.forDirectory)
      try write(bytes, validate: validate)
    }
  }
}
