import Foundation
import StoicStore
import StoicTesting
import Testing

/// An app's own error, thrown from inside a read.
struct AppDecodingError: Error, Equatable {
  let sequence: UInt64
}

@Suite("Journal readers: a body may throw its own error type; payloads as text")
struct JournalReaderErrorTests {
  func journal(_ texts: [String]) throws -> Journal {
    let journal = try Journal.open(
      directory: "/j", fileSystem: SimulatedFileSystem(),
      options: JournalOptions(syncPolicy: .never))
    for text in texts { try journal.append(contentsOf: text.utf8) }
    return journal
  }

  @Test("a JSON decoder's error inside the body compiles and comes out unchanged")
  func decoderErrors() throws {
    let journal = try journal([#"{"n":1}"#, #"{"n":2}"#, "not json", #"{"n":4}"#])
    struct Entry: Decodable { let n: Int }
    var decoded: [Int] = []
    #expect(throws: DecodingError.self) {
      try journal.forEachRecord { record in
        decoded.append(try JSONDecoder().decode(Entry.self, from: Data(record.payload)).n)
      }
    }
    #expect(decoded == [1, 2])
  }

  @Test("the first error of the body stops the read; the borrowing reader too")
  func stopsAtFirstError() throws {
    let journal = try journal(["a", "b", "c", "d"])
    var seen: [UInt64] = []
    let error = try #require(throws: AppDecodingError.self) {
      try journal.forEachRecordBorrowing { (sequence, _) throws(AppDecodingError) in
        seen.append(sequence)
        if sequence == 2 { throw AppDecodingError(sequence: sequence) }
      }
    }
    #expect(error == AppDecodingError(sequence: 2))
    #expect(seen == [1, 2])
  }

  @Test("a body typed as throwing StoreError keeps the typed read, and a clean read visits all")
  func typedStillTyped() throws {
    let journal = try journal(["a", "b"])
    func read() throws(StoreError) -> [String] {
      var texts: [String] = []
      try journal.forEachRecord { (record) throws(StoreError) in texts.append(record.text ?? "") }
      return texts
    }
    #expect(try read() == ["a", "b"])
  }

  @Test("text is the payload when it is UTF-8, nil when it is not")
  func text() {
    #expect(JournalRecord(sequence: 1, payload: Array("héllo".utf8)).text == "héllo")
    #expect(JournalRecord(sequence: 1, payload: [0xFF, 0x41]).text == nil)
  }
}
