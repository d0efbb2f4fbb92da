import BenchKit

/// The command line of `stoic-bench`.
struct BenchOptions {
  var json = false
  /// Print the section that leads `BENCHMARKS.md` (``MarkdownReport``) instead of the table.
  var markdown = false
  var quick = false
  /// The issue's full sizes where a scenario's default is smaller (the 1 GiB backlog and spool
  /// of `forwarding` and `query`); also set by `STOIC_BENCH_LARGE=1`.
  var large = false
  var directory: String?
  var scenario: String?
  var runs: Int?
  var help = false
  /// The `otelcol-contrib` binary of the `pipeline` scenario's peer (else `$STOIC_OTELCOL`, else
  /// the one `./scripts/bootstrap` installs in `.build/venv`).
  var otelcol: String?
  /// Hidden: replay the journal in this directory and print a ``ReplayChildReport`` (the parent
  /// re-executes itself with this, so each replay's peak memory is measured in its own process).
  var replayChild: String?

  static let usage = """
    usage: stoic-bench [--quick] [--large] [--json | --markdown] [--directory DIR] [--scenario ID] [--runs N]
                       [--otelcol PATH]

      --quick          reduced sizes for a fast look
      --large          the issue's full sizes where the default is smaller: a 1 GiB backlog
                       (forwarding) and a 1 GiB spool (query); or STOIC_BENCH_LARGE=1
      --json           print one JSON object instead of the table
      --markdown       print the lead section for BENCHMARKS.md: command, commit, machine,
                       load, one table of every figure and target, a placeholder per MISS
      --directory DIR  where the benchmark's files go (default: a temporary directory under
                       /tmp); a subdirectory is created there and removed afterwards
      --scenario ID    run one scenario: \(ScenarioCatalog.ids.joined(separator: ", "))
      --runs N         repetitions of each figure (default 5, 3 with --quick)
      --otelcol PATH   otelcol-contrib for the pipeline scenario's peer (default
                       $STOIC_OTELCOL, else the one in .build/venv from ./scripts/bootstrap)
    """

  init(arguments: [String]) throws {
    var remaining = arguments[...]
    func value(for flag: String) throws -> String {
      guard let next = remaining.popFirst() else { throw BenchError("\(flag) needs a value") }
      return next
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--json": json = true
      case "--markdown": markdown = true
      case "--quick": quick = true
      case "--large": large = true
      case "--directory": directory = try value(for: argument)
      case "--scenario":
        let id = try value(for: argument)
        guard ScenarioCatalog.ids.contains(id) else {
          throw BenchError(
            "unknown scenario \(id); known: \(ScenarioCatalog.ids.joined(separator: ", "))")
        }
        scenario = id
      case "--runs":
        guard let count = Int(try value(for: argument)), count > 0 else {
          throw BenchError("--runs needs a positive number")
        }
        runs = count
      case "--otelcol": otelcol = try value(for: argument)
      case "--replay-child": replayChild = try value(for: argument)
      case "--help", "-h": help = true
      default: throw BenchError("unknown argument \(argument)\n\(Self.usage)")
      }
    }
    if json && markdown { throw BenchError("--json and --markdown exclude each other") }
  }
}
