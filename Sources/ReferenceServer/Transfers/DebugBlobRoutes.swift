import Foundation
import Hummingbird

/// Large deterministic downloads under `/debug`, with validators and byte ranges:
///
/// - `GET /debug/blobs/{name}?size=N` → N bytes of the blob's current revision (see
///   ``BlobContent``), generated as they are sent, with `ETag`, `Last-Modified`,
///   `Accept-Ranges: bytes` and `Cache-Control: no-store`. A single `Range` is answered with a
///   206 and `Content-Range`, or a 416 with `Content-Range: bytes */N` when it starts past the
///   end; an `If-Range` that matches neither validator gets the whole blob (200).
/// - `POST /debug/blobs/{name}/revision` → `{"name": …, "revision": R}`: the blob changes, as
///   an edited file would (new bytes, new validators).
struct DebugBlobRoutes: Sendable {
    /// The largest blob served.
    static let maximumSize = 16 << 30

    let catalog: BlobCatalog

    private struct Revision: Encodable {
        let name: String
        let revision: Int
    }

    /// Adds the routes to a group mounted at `/debug`.
    func register<Context: RequestContext>(on debug: RouterGroup<Context>) {
        debug.get("blobs/{name}") { request, context in
            let name = context.parameters.get("name") ?? ""
            let query = QueryItems(rawQuery: request.uri.query)
            guard query.first("size") != nil else { throw APIError.validationFailed("size is required") }
            let size = try query.integer("size", default: 0, in: 0...Self.maximumSize)
            return Self.serve(catalog.blob(name: name, size: size), request: request)
        }
        debug.post("blobs/{name}/revision") { _, context in
            let name = context.parameters.get("name") ?? ""
            return try Response.json(Revision(name: name, revision: catalog.revise(name: name)))
        }
    }

    private static func serve(_ blob: Blob, request: Request) -> Response {
        var headers: HTTPFields = [
            .contentType: "application/octet-stream",
            .eTag: blob.etag,
            .lastModified: blob.lastModified,
            .acceptRanges: "bytes",
            .cacheControl: "no-store",
        ]
        let selection = RangeSelection.select(
            range: request.headers.joinedValues(for: .range),
            ifRange: request.headers[.ifRange],
            length: blob.size,
            etag: blob.etag,
            lastModified: blob.lastModified
        )
        let status: HTTPResponse.Status
        let range: Range<Int>
        switch selection {
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(blob.size)"
            return Response(status: .rangeNotSatisfiable, headers: headers, body: ResponseBody())
        case .whole:
            status = .ok
            range = 0..<blob.size
        case .partial(let selected):
            status = .partialContent
            range = selected
            headers[.contentRange] = "bytes \(selected.lowerBound)-\(selected.upperBound - 1)/\(blob.size)"
        }
        let content = blob.content
        let body = ResponseBody(contentLength: range.count) { writer in
            try await content.write(range, to: &writer)
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }
}
