/// A span's attributes that the spool encodes in place, walked where they are, instead of a
/// ``SpanRecordAttributes`` built for the end: a tracer hands the attributes its API kept
/// (swift-distributed-tracing's `SpanAttributes`) over wrapped, so that ending a span builds no
/// dictionary for them (``SpanEnd/init(start:endTimeNanoseconds:attributePairs:droppedAttributesCount:events:droppedEventsCount:links:droppedLinksCount:status:isUnfinished:)``).
/// ``SpanRecordAttributes`` itself is one.
///
/// The spool walks the pairs once, encoding the record on the stack, or, for a record of 1 KiB
/// or more, again to size it and once more to encode it into the journal's mapped tail:
/// ``forEachPair(_:)`` must give the same pairs, in the same order, at every call, and exactly
/// ``pairCount`` of them. Keys are unique.
public protocol SpanAttributePairs {
  /// How many pairs ``forEachPair(_:)`` gives.
  var pairCount: Int { get }

  /// Calls `body` with every key and value, the same pairs in the same order at every call.
  func forEachPair(_ body: (String, SpanAttributeValue) -> Void)
}

extension Dictionary: SpanAttributePairs where Key == String, Value == SpanAttributeValue {
  /// The number of entries.
  public var pairCount: Int { count }

  /// Calls `body` with every entry, in the dictionary's order.
  public func forEachPair(_ body: (String, SpanAttributeValue) -> Void) {
    for (key, value) in self { body(key, value) }
  }

  /// The pairs of `pairs` as a dictionary (a later pair wins a key).
  init(pairs: some SpanAttributePairs) {
    self.init(minimumCapacity: pairs.pairCount)
    pairs.forEachPair { key, value in self[key] = value }
  }
}

/// A span end's attributes as its writer gave them: a ``SpanRecordAttributes`` or other
/// ``SpanAttributePairs``, which the spool walks where they are. Equal and hashed as the
/// dictionary the pairs make.
struct SpanAttributeStorage: Sendable, Hashable {
  /// The attributes as given.
  var pairs: any SpanAttributePairs & Sendable

  /// The attributes as a dictionary (built, for pairs that are not one).
  var dictionary: SpanRecordAttributes {
    pairs as? SpanRecordAttributes ?? SpanRecordAttributes(pairs: pairs)
  }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.dictionary == rhs.dictionary }

  func hash(into hasher: inout Hasher) { hasher.combine(dictionary) }
}
