/// A command line the tool cannot act on: an unknown command or flag, a missing value.
struct UsageError: Error {
  let message: String
}
