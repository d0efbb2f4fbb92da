import StoicStore

extension AtomicFile {
  /// Writes; when that fails because the file's directory is missing, creates the directory
  /// (private unless the file's permissions let others read it: see
  /// ``StoicStore/FilePermissions/forDirectory``), makes its name durable (syncs its parent)
  /// and writes again.
  func writeCreatingDirectory(_ bytes: [UInt8], validate: @escaping ([UInt8]) -> Bool)
    throws(StoreError)
  {
    do throws(StoreError) {
      try write(bytes, validate: validate)
    } catch {
      let directory = Path.directory(of: path)
      guard error.code == .notFound, !((try? fileSystem.exists(path)) ?? true) else { throw error }
      try fileSystem.createDirectory(directory, permissions: options.permissions.forDirectory)
      try fileSystem.syncDirectory(Path.directory(of: directory))
      try write(bytes, validate: validate)
    }
  }
}
