import Hummingbird

/// Times every request for ``GatewayMetrics``, labelled with the matched route (not the raw path, so ids do not
/// explode the label set).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: GatewayMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        metrics.recordRequest(
            method: request.method.rawValue, route: context.endpointPath ?? "unmatched",
            status: response.status.code, duration: ContinuousClock.now - start)
        return response
    }
}
