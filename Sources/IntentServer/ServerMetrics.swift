import Foundation
import Prometheus

/// The server's counters and histograms, in a registry of its own (no process-wide bootstrap, so
/// several servers in one process — the tests — each count their own).
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    static let buckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(20), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]

    /// One request answered: counted by route and status, timed by route.
    func request(route: String, method: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: .init(
                namespace: "intents", subsystem: "http", metricName: "requests", unitName: "total",
                helpText: "HTTP requests answered, by route, method and status."),
            labels: [("route", route), ("method", method), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: .init(
                namespace: "intents", subsystem: "http", metricName: "request_duration", unitName: "seconds",
                helpText: "Time from the request's head to its response, by route."),
            labels: [("route", route)], buckets: Self.buckets
        ).record(duration)
        if status >= 400 { error(kind: status >= 500 ? "server" : "client", status: status) }
    }

    func error(kind: String, status: Int) {
        registry.makeCounter(
            descriptor: .init(
                namespace: "intents", subsystem: "http", metricName: "errors", unitName: "total",
                helpText: "Refused or failed requests, by kind (client, server) and status."),
            labels: [("kind", kind), ("status", String(status))]
        ).increment()
    }

    /// One answer of the engine, by its status and the stage that read the phrase
    /// (`exact`, `learned`, `none` for no match, `reply` for an answer to a question).
    func answer(status: String, stage: String, duration: Duration) {
        registry.makeCounter(
            descriptor: .init(
                namespace: "intents", subsystem: "engine", metricName: "answers", unitName: "total",
                helpText: "Answers of the engine, by status and matcher stage."),
            labels: [("status", status), ("stage", stage)]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: .init(
                namespace: "intents", subsystem: "engine", metricName: "answer_duration", unitName: "seconds",
                helpText: "Time the engine took to answer, by matcher stage."),
            labels: [("stage", stage)], buckets: Self.buckets
        ).record(duration)
    }

    func text() -> String { registry.emitToString() }
}
