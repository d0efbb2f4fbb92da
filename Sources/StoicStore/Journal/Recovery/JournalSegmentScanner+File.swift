extension JournalSegmentScanner {
  /// A scanner over the open `.log` segment `handle` of `fileSize` bytes, read through windows
  /// of ``JournalOptions/readWindow`` and accepting records up to
  /// ``JournalOptions/maxRecordSize``.
  init(
    fileSystem: any FileSystem, handle: StoreFileHandle, fileSize: UInt64, options: JournalOptions,
    segmentFirst: UInt64, previousSequence: UInt64
  ) {
    self.init(
      reader: JournalWindowReader(
        fileSystem: fileSystem, handle: handle, fileSize: fileSize, window: options.readWindow),
      segmentFirst: segmentFirst, previousSequence: previousSequence,
      maxRecordSize: options.maxRecordSize)
  }
}
