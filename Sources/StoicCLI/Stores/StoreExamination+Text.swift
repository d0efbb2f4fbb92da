import StoicStore

extension StoreExamination {
  /// One line saying what the store holds, for `verify`.
  var summary: String {
    switch location.kind {
    case .spool:
      guard let spool else { return "spool" }
      let journals = spool.examinedJournals.map { name, journal in
        "\(name): " + (journal.journal.map { Self.count($0.records, "record") } ?? "not read")
      }
      return (["spool"] + journals).joined(separator: ", ")
    case .atomicFile:
      guard let file = atomicFile else { return "atomic file" }
      let generations = file.generations.map { generation in
        let name = generation.file.role == .current ? "current" : "previous"
        if let problem = generation.problem { return "\(name) unusable (\(problem))" }
        return "\(name) ok (\(generation.payloadBytes ?? 0)-byte payload)"
      }
      let read =
        switch file.readSource {
        case .current?: "a read returns the current generation"
        case .previous?: "a read returns the previous generation"
        case nil: "a read finds nothing usable"
        }
      return "atomic file, "
        + (generations.isEmpty ? "no generation" : generations.joined(separator: ", ")) + "; "
        + read
    case .journal, .outbox, .collector:
      guard let journal else { return location.kind.rawValue }
      var text = "\(location.kind.rawValue), \(Self.count(journal.segments.count, "segment")), "
      text += Self.count(journal.records, "record") + " read"
      if let range = journal.sequences {
        text += " (sequences \(range.lowerBound)…\(range.upperBound))"
      }
      if let outbox {
        text +=
          "; \(outbox.pending.count) pending, \(outbox.parked.count) parked, "
          + "\(outbox.unreadable.count) unreadable"
      }
      if let collector { text += "; " + Self.describe(collector) }
      return text
    }
  }

  /// The findings as lines: `DAMAGE`, `warning` or `note`, the file, where, and the message.
  func findingLines(style: Style, indent: String = "  ") -> [String] {
    findings.map { finding in
      let label: String =
        switch finding.severity {
        case .damage: style("DAMAGE ", .red)
        case .warning: style("warning", .yellow)
        case .note: style("note   ", .dim)
        }
      var place = finding.file.map { shortName($0) } ?? ""
      if let offset = finding.offset, finding.kind == .damage || finding.kind == .tornTail {
        place += " at offset \(offset)"
        if let length = finding.length { place += " (\(length) bytes)" }
      }
      return indent + label + "  " + (place.isEmpty ? "" : place + ": ") + finding.message
    }
  }

  /// The last line of `verify`: the verdict and why.
  func verdictLine(style: Style) -> String {
    switch verifyStatus {
    case .damage:
      let count = findings.filter { $0.severity == .damage }.count
      return style("damaged", .red) + ": " + Self.count(count, "finding")
        + " the library refuses or cannot use"
    case .unreadable:
      return style("could not read", .red) + ": " + (failure?.message ?? "unknown error")
    default:
      let warnings = findings.filter { $0.severity == .warning }.count
      return style("clean", .green) + ": nothing the library would refuse"
        + (warnings > 0 ? " (" + Self.count(warnings, "warning") + ")" : "")
    }
  }

  /// `1 record`, `3 records` (`plural` when adding an `s` will not do).
  static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
    "\(number) " + (number == 1 ? noun : plural ?? noun + "s")
  }
}
