import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierSQLite
import CourierURLSession
import Foundation
import HTTPTypes
import InMemoryTracing

/// One `courier get|post|put|patch|delete` call: the request built from the options, sent
/// through an `APIClient` (the whole chain), its body written out, and the exit status.
struct HTTPCall {
    /// Where the call writes: the body, and the lines for people.
    struct Output: Sendable {
        var body: @Sendable (Data) -> Void
        var diagnostic: @Sendable (String) -> Void
        /// Whether the body goes to a terminal (JSON is then pretty-printed).
        var bodyIsTerminal: Bool

        static let standard = Output(
            body: { FileHandle.standardOutput.write($0) },
            diagnostic: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
            bodyIsTerminal: isatty(STDOUT_FILENO) == 1
        )
    }

    /// Runs the call and exits with its status when it is not 0.
    static func exit(method: HTTPRequest.Method, _ options: HTTPCallOptions) async throws {
        let status = await run(method: method, options: options, output: .standard)
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs the call. 0: a 2xx answered; 1: Courier failed with a typed error (a status the
    /// client does not accept, a transport failure, a decoding failure…), printed as
    /// `courier: CODE: message`; 2: the options were wrong or a file could not be read.
    static func run(method: HTTPRequest.Method, options: HTTPCallOptions, output: Output, credentials: URL = HTTPCallPlan.defaultCredentialsFolder) async -> Int32 {
        do {
            let call = try HTTPCallPlan(method: method, options: options, credentials: credentials)
            return try await call.send(output: output)
        } catch {
            return failure(error, write: output.diagnostic)
        }
    }

    /// Writes a failure as `courier: CODE: message …` and returns its exit status: 1 for a
    /// typed error from Courier, 2 for wrong options or anything else.
    static func failure(_ error: any Error, write: (String) -> Void) -> Int32 {
        switch error {
        case let error as CourierError:
            var line = "courier: \(error.code): \(error.message)"
            if let status = error.status { line += " (status \(status.code))" }
            if let message = error.serverMessage { line += "; the server said: \(message)" }
            write(line)
            return 1
        case let error as ValidationError:
            write("courier: \(error.message)")
            return 2
        default:
            write("courier: \(error)")
            return 2
        }
    }
}

/// The request a call sends, and the client it sends it with.
struct HTTPCallPlan {
    let method: HTTPRequest.Method
    let options: HTTPCallOptions
    let url: URL
    let origin: URL
    /// The folder of `courier login`'s per-origin credential files.
    let credentials: URL

    /// `~/.config/courier/credentials`, where `courier login` keeps one file per origin.
    static var defaultCredentialsFolder: URL {
        FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/courier/credentials")
    }

    init(method: HTTPRequest.Method, options: HTTPCallOptions, credentials: URL = HTTPCallPlan.defaultCredentialsFolder) throws {
        guard let url = URL(string: options.url), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw ValidationError("not an http(s) URL: \(options.url)")
        }
        // The origin keeps the host as the URL spells it (an IPv6 literal with its brackets,
        // which a host set again from `url.host` would lose), without anything after it.
        components.scheme = scheme
        components.user = nil
        components.password = nil
        components.path = ""
        components.query = nil
        components.fragment = nil
        guard let origin = components.url else { throw ValidationError("not an http(s) URL: \(options.url)") }
        self.method = method
        self.options = options
        self.url = url
        self.origin = origin
        self.credentials = credentials
    }

    func request() async throws -> Request<Data> {
        var request = Request<Data>(method: method, path: url.absoluteString)
        if let json = options.json {
            request.body = .data(Data(json.utf8), contentType: "application/json")
        } else if let data = options.data {
            if data.hasPrefix("@") {
                let path = String(data.dropFirst())
                guard let bytes = FileManager.default.contents(atPath: path) else { throw ValidationError("cannot read \(path)") }
                request.body = .data(bytes)
            } else {
                request.body = .data(Data(data.utf8), contentType: "application/x-www-form-urlencoded")
            }
        }
        for header in options.headers {
            guard let colon = header.firstIndex(of: ":"), let name = HTTPField.Name(String(header[..<colon]).trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("not a header (Name: value): \(header)")
            }
            request.headers.append(HTTPField(name: name, value: String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        var token = options.bearer
        if token == nil { token = try await storedToken() }
        if !request.headers.contains(.authorization), let token {
            request.headers[.authorization] = "Bearer \(token)"
        }
        request.options.timeout = .milliseconds(Int64(max(0.001, options.timeout) * 1_000))
        return request
    }

    /// The access token `courier login` stored for this URL's origin, if any: the
    /// per-origin file is the only one read, so a token never reaches another server.
    private func storedToken() async throws -> String? {
        try await FileCredentialStore(url: credentials.appendingPathComponent(ServerOptions.fileName(for: origin))).load()?.accessToken
    }

    func send(output: HTTPCall.Output) async throws -> Int32 {
        let request = try await request()
        var configuration = ClientConfiguration(baseURL: origin)
        configuration.timeout = request.options.timeout
        if options.verbose {
            configuration.middleware = [ChainEventPrinter(write: output.diagnostic)]
            configuration.networkMiddleware = [VerboseMiddleware(write: output.diagnostic)]
        }
        let tracer = options.trace ? InMemoryTracer() : nil
        configuration.tracer = tracer
        defer {
            if let tracer {
                output.diagnostic("* spans:")
                for line in SpanTreePrinter(tracer: tracer).lines() { output.diagnostic(line) }
            }
        }
        if let folder = options.cache {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            configuration.cache = HTTPCache(storage: try SQLiteCacheStorage(url: URL(fileURLWithPath: folder).appendingPathComponent("cache.sqlite")))
        }
        let transport = try options.transport.make(tls: options.tlsPolicy())
        do {
            let status = try await send(request, client: APIClient(configuration: configuration, transport: transport.transport), output: output)
            await transport.shutdown()
            return status
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    private func send(_ request: Request<Data>, client: APIClient, output: HTTPCall.Output) async throws -> Int32 {
        let response = try await client.send(request)
        if options.verbose {
            let metrics = response.metrics
            let wire = metrics.wireBytesReceived.map { ", \($0) on the wire" } ?? ""
            output.diagnostic("* \(response.http.status.code) from \(Self.describe(metrics.cacheStatus)) after \(metrics.attempts) attempt(s) in \(Self.milliseconds(metrics.duration)) ms; body \(metrics.bytesReceived) bytes\(wire)")
        }
        if let path = options.output {
            try response.value.write(to: URL(fileURLWithPath: path))
            return 0
        }
        if output.bodyIsTerminal, response.headers[.contentType]?.contains("json") == true,
           let object = try? JSONSerialization.jsonObject(with: response.value, options: [.fragmentsAllowed]),
           let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed]) {
            output.body(pretty + Data("\n".utf8))
        } else {
            output.body(response.value)
        }
        return 0
    }

    static func describe(_ status: CacheStatus) -> String {
        switch status {
        case .network: "the network"
        case .hit: "the cache (fresh)"
        case .revalidated: "the cache (revalidated with a 304)"
        case .stale: "the cache (stale, allowed)"
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1f", Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }
}
