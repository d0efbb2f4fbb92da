import Foundation
import StoicTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stoic-agent` without `--endpoint`: OpenTelemetry's variables say where and how to send.
@Suite("End to end: the agent configured by OTEL_* variables")
struct AgentEnvironmentTests {
  @Test("no --endpoint: endpoint and headers from OTEL_EXPORTER_OTLP_*, every seq arrives once")
  func agentFromEnvironment() async throws {
    let directory = try EndToEnd.scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let data = directory + "/collector"
    let collector = try CollectorProcess(data: data, port: 0, ["--token", "agent-t0ken"])
    let agent = try ChildProcess(
      "stoic-agent",
      ["--spool", directory + "/spool", "--logs", "40", "--exit-when-drained"],
      environment: [
        "OTEL_EXPORTER_OTLP_ENDPOINT": collector.endpoint,
        "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20agent-t0ken",
        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
      ])
    let status = agent.wait(seconds: 120)
    collector.child.stop(SIGTERM)
    #expect(status == 0, "\(String(describing: status)) \(agent.errors)")
    #expect(!agent.errors.contains("agent-t0ken") && !agent.output.contains("agent-t0ken"))
    let counts = try EndToEnd.agentSequences(collector: data)
    #expect(counts.keys.sorted() == Array(0..<40))
    #expect(counts.values.allSatisfy { $0 == 1 })
  }

  @Test("a refused credential is said once on standard error, clearly; the records are kept")
  func agentWithAWrongToken() throws {
    let directory = try EndToEnd.scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let data = directory + "/collector"
    let collector = try CollectorProcess(data: data, port: 0, ["--token", "right-t0ken"])
    let agent = try ChildProcess(
      "stoic-agent",
      ["--spool", directory + "/spool", "--logs", "40", "--exit-when-drained"],
      environment: [
        "OTEL_EXPORTER_OTLP_ENDPOINT": collector.endpoint,
        "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20wrong-t0ken",
      ])
    let said =
      "stoic-agent: error: the receiver refused the credentials: check OTEL_EXPORTER_OTLP_HEADERS"
    let deadline = Date().addingTimeInterval(60)
    while !agent.errors.contains(said) && Date() < deadline { usleep(50_000) }
    // The agent goes on trying (its backoff is at most 2 s): still one line within the minute.
    usleep(4_000_000)
    agent.stop(SIGKILL)
    collector.child.stop(SIGTERM)
    let lines = agent.errors.split(separator: "\n").filter {
      $0.contains("forwarding.unauthorized")
    }
    #expect(lines.count == 1, "\(agent.errors)")
    #expect(lines.first?.hasPrefix(said) == true, "\(agent.errors)")
    #expect(!agent.errors.contains("t0ken") && !agent.output.contains("t0ken"))
    #expect(try EndToEnd.agentSequences(collector: data).isEmpty)
    let spool = try EndToEnd.openSpool(directory + "/spool")
    let kept = try spool.logs.entries(from: spool.logs.lowWaterMark + 1)
      .filter { $0.record?.label.hasPrefix("agent.") == true }
    try spool.close()
    #expect(kept.count == 40)
  }

  @Test("neither --endpoint nor an endpoint variable: exit 64 with a usage message")
  func agentWithoutEndpoint() throws {
    let directory = try EndToEnd.scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let agent = try ChildProcess(
      "stoic-agent", ["--spool", directory + "/spool", "--logs", "1"],
      environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": ""])
    #expect(agent.wait(seconds: 30) == 64)
    #expect(agent.errors.contains("OTEL_EXPORTER_OTLP_ENDPOINT"))
  }

  @Test("OTEL_SDK_DISABLED=true: the records are spooled, nothing is sent, exit 0")
  func agentWithTheSDKDisabled() throws {
    let directory = try EndToEnd.scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let data = directory + "/collector"
    let collector = try CollectorProcess(data: data, port: 0)
    let agent = try ChildProcess(
      "stoic-agent",
      ["--spool", directory + "/spool", "--logs", "40", "--exit-when-drained"],
      environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": collector.endpoint, "OTEL_SDK_DISABLED": "TRUE"])
    let status = agent.wait(seconds: 60)
    collector.child.stop(SIGTERM)
    #expect(status == 0, "\(String(describing: status)) \(agent.errors)")
    #expect(agent.errors.contains("OTEL_SDK_DISABLED"), "\(agent.errors)")
    #expect(try EndToEnd.agentSequences(collector: data).isEmpty)
    let spool = try EndToEnd.openSpool(directory + "/spool")
    let kept = try spool.logs.entries(from: spool.logs.lowWaterMark + 1)
      .filter { $0.record?.label.hasPrefix("agent.") == true }
    try spool.close()
    #expect(kept.count == 40)
    // No endpoint is needed either.
    let alone = try ChildProcess(
      "stoic-agent", ["--spool", directory + "/spool2", "--logs", "3"],
      environment: [
        "OTEL_EXPORTER_OTLP_ENDPOINT": "", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "",
        "OTEL_SDK_DISABLED": "true",
      ])
    #expect(alone.wait(seconds: 60) == 0, "\(alone.errors)")
  }
}
