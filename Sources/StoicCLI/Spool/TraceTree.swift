import StoicTelemetry

/// One trace's spans in the order `stoic trace` prints them: each span under its parent,
/// children by start time, drawn with the box characters of `tree(1)`.
struct TraceTree {
  /// A span in its place.
  struct Row {
    /// The lines and corners that place it (`├─ `, `│  └─ `, …); empty for a root.
    var prefix: String
    /// How deep it is: 0 for a root.
    var depth: Int
    /// The span.
    var span: QueriedSpan
    /// The parent the span names when that parent is not among the trace's spans in the spool
    /// (a remote parent, or one already forwarded and dropped), shown at a root.
    var missingParent: SpanID?
  }

  /// The rows, roots and their descendants depth first.
  private(set) var rows: [Row] = []

  /// Places `spans` (one trace's): the roots are the spans without a parent and those whose
  /// parent is not among `spans`, by start time; a span reached twice (the same id twice, or a
  /// cycle of parents in damaged data) is placed once.
  init(_ spans: [QueriedSpan]) {
    func order(_ a: QueriedSpan, _ b: QueriedSpan) -> Bool {
      (a.start.startTimeNanoseconds, a.start.spanID.value)
        < (b.start.startTimeNanoseconds, b.start.spanID.value)
    }
    var ids = Set<SpanID>()
    for span in spans { ids.insert(span.start.spanID) }
    var children: [SpanID: [QueriedSpan]] = [:]
    var roots: [QueriedSpan] = []
    for span in spans {
      let parent = span.start.parentSpanID
      if parent.isValid, parent != span.start.spanID, ids.contains(parent) {
        children[parent, default: []].append(span)
      } else {
        roots.append(span)
      }
    }
    var placed = Set<SpanID>()
    // Depth first without recursion: (span, prefix of its children, its own corner, depth).
    var stack: [(QueriedSpan, String, String, Int)] = []
    func place(_ root: QueriedSpan) {
      stack.append((root, "", "", 0))
      while let (span, indent, corner, depth) = stack.popLast() {
        guard placed.insert(span.start.spanID).inserted else { continue }
        let parent = span.start.parentSpanID
        rows.append(
          Row(
            prefix: indent + corner, depth: depth, span: span,
            missingParent: depth == 0 && parent.isValid && !ids.contains(parent) ? parent : nil))
        let kids = (children[span.start.spanID] ?? []).sorted(by: order)
        let inner = depth == 0 ? "" : indent + (corner == "└─ " ? "   " : "│  ")
        for (index, kid) in kids.enumerated().reversed() {
          stack.append((kid, inner, index == kids.count - 1 ? "└─ " : "├─ ", depth + 1))
        }
      }
    }
    for root in roots.sorted(by: order) { place(root) }
    // What no root reaches (a cycle of parents) is placed from its earliest span.
    for span in spans.sorted(by: order) where !placed.contains(span.start.spanID) {
      place(span)
    }
  }
}
