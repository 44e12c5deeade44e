public import Foundation

extension APIClient {
    /// Sends a request whose body is uploaded with progress, and decodes its JSON answer.
    ///
    /// The body can be anything a ``Request`` carries: a file (``RequestBody/file(_:contentType:chunkSize:)``,
    /// streamed from disk), a form (``RequestBody/multipart(_:)``), bytes or an encodable value.
    /// Progress counts the bytes handed to the transport, against the body's length when it
    /// is known. The request goes through the whole chain (authentication, retry of a
    /// replayable body); a retried upload's progress holds until the new attempt passes it.
    ///
    /// ```swift
    /// let upload = client.upload(Request<UploadReceipt>(method: .post, path: "/uploads",
    ///                                                   body: try .file(archiveURL)))
    /// for await step in upload.progress { print(step) }
    /// let receipt = try await upload.value().value
    /// ```
    /// - Parameter request: The request, with its body.
    /// - Returns: The transfer; its value is the decoded response.
    public func upload<Value: Decodable & Sendable>(_ request: Request<Value>) -> Transfer<Response<Value>> {
        startUpload(request) { try await self.send($0) }
    }

    /// Sends a request whose body is uploaded with progress, and returns its raw answer.
    /// - Parameter request: The request, with its body.
    /// - Returns: The transfer; its value is the response with the body's bytes.
    public func upload(_ request: Request<Data>) -> Transfer<Response<Data>> {
        startUpload(request) { try await self.send($0) }
    }

    /// Sends a request whose body is uploaded with progress, ignoring the answer's body.
    /// - Parameter request: The request, with its body.
    /// - Returns: The transfer; its value is the response.
    public func upload(_ request: Request<Void>) -> Transfer<Response<Void>> {
        startUpload(request) { try await self.send($0) }
    }

    private func startUpload<Value: Sendable>(
        _ request: Request<Value>,
        send: @escaping @Sendable (Request<Value>) async throws -> Response<Value>
    ) -> Transfer<Response<Value>> {
        let encoder = request.encoder ?? configuration.encoder
        return Transfer(total: request.body?.knownLength) { reporter in
            guard let requestBody = request.body else {
                let response = try await send(request)
                reporter.complete(bytes: 0)
                return response
            }
            let body: HTTPBody
            do {
                body = try requestBody.makeBody(encoder: encoder)
            } catch {
                throw CourierError(code: .invalidRequest, message: "the request body could not be encoded", underlying: error)
            }
            reporter.setTotal(body.length.knownCount)
            var counted = request
            counted.body = RequestBody(
                content: .bytes(CountingChunks.body(counting: body, into: reporter)),
                contentType: requestBody.contentType
            )
            let response = try await send(counted)
            reporter.complete(bytes: body.length.knownCount ?? reporter.current.completedBytes)
            return response
        }
    }
}

extension HTTPBody.Length {
    /// The number of bytes, when known.
    var knownCount: Int64? {
        if case .known(let count) = self { return count }
        return nil
    }
}
