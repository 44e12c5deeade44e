import Hummingbird

/// Applies the body cut scripted for a request, if any (see ``BodyFaultInjector``): the
/// response's body is written through a writer that closes the connection after the given
/// number of bytes.
struct BodyFaultMiddleware<Context: RequestContext>: RouterMiddleware {
    let faults: BodyFaultInjector

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        guard let cut = faults.takeCut(path: request.uri.path, bodyLength: response.body.contentLength) else { return response }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            try await body.write(CuttingBodyWriter(parent: writer, remaining: cut))
        }
        return response
    }
}

/// Passes body bytes on until its allowance is spent, then stops the response, which makes
/// the server close the connection with the body cut short.
struct CuttingBodyWriter: ResponseBodyWriter {
    /// Thrown to stop the response on purpose.
    struct BodyCutOnPurpose: Error {}

    var parent: any ResponseBodyWriter
    var remaining: Int

    mutating func write(_ buffer: ByteBuffer) async throws {
        if buffer.readableBytes < remaining {
            remaining -= buffer.readableBytes
            try await parent.write(buffer)
            return
        }
        if remaining > 0, let head = buffer.getSlice(at: buffer.readerIndex, length: remaining) {
            try await parent.write(head)
        }
        remaining = 0
        // Give the event loop a moment to flush the bytes already written before the close.
        try await Task.sleep(for: .milliseconds(50))
        throw BodyCutOnPurpose()
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await parent.finish(trailingHeaders)
    }
}
