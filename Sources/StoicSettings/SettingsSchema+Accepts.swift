extension SettingsSchema {
  /// The check AtomicFile applies before a file is kept (as the previous generation) or
  /// returned: the bytes parse as a document. A newer format's document passes.
  func accepts(format: SettingsFormat) -> ([UInt8]) -> Bool {
    { bytes in
      guard case .success = parse(bytes, format: format) else { return false }
      return true
    }
  }
}
