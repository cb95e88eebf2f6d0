import Foundation
import Prometheus

/// The gateway's Prometheus metrics, in a registry of its own (no global bootstrap, so several gateways — tests —
/// live in one process): request latency by route and status, and authorisations by result.
public final class GatewayMetrics: Sendable {
    /// The registry `/metrics` emits.
    public let registry = PrometheusCollectorRegistry()
    static let latencyBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .seconds(2.5), .seconds(5),
    ]

    /// Creates an empty registry.
    public init() {}

    /// Records one HTTP request's latency.
    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "gateway", metricName: "http_request_duration", unitName: "seconds",
                helpText: "HTTP request latency by route and status"),
            labels: [("method", method), ("route", route), ("status", "\(status)")], buckets: Self.latencyBuckets
        ).record(duration)
    }

    /// Counts an authorisation by its result (a payment status, or an API error code).
    func recordAuthorization(result: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "gateway", metricName: "authorizations", unitName: "total",
                helpText: "Authorisations by result"),
            labels: [("result", result)]
        ).increment()
    }

    /// The Prometheus text exposition.
    public func exposition() -> String { registry.emitToString() }
}
