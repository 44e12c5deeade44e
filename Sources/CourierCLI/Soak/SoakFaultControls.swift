import Courier
import Foundation
import HTTPTypes
import ReferenceServer

/// Where a soak scripts its faults: on the reference server in this process, through its
/// Swift controls, or on one in another process (`courier serve --debug-routes`), through the
/// `/debug` routes those same controls sit behind.
protocol SoakFaultControls: Sendable {
    /// The next `count` requests to `path` with `method` are closed without an answer.
    func dropConnections(method: String, path: String, count: Int) async throws
    /// The next `count` requests to `path` with `method` are answered with `status`.
    func answer(status: Int, method: String, path: String, count: Int) async throws
    /// The next `count` responses to `path` close their connection after `afterBodyBytes`
    /// bytes of body.
    func cutBodies(afterBodyBytes: Int, path: String, count: Int) async throws
    /// Every valid access token expires now.
    func expireAccessTokens() async throws
    /// Every WebSocket is closed without a close frame.
    func dropRealtimeConnections() async throws
    /// Every scripted fault and body cut is removed.
    func clear() async throws
}

/// The faults of a soak against the reference server in this process.
struct EmbeddedSoakFaults: SoakFaultControls {
    let server: ReferenceServer

    func dropConnections(method: String, path: String, count: Int) {
        server.faults.inject(.dropConnection, count: count, method: method, path: path)
    }

    func answer(status: Int, method: String, path: String, count: Int) {
        server.faults.inject(.status(status), count: count, method: method, path: path)
    }

    func cutBodies(afterBodyBytes: Int, path: String, count: Int) {
        server.bodyFaults.dropConnection(afterBodyBytes: afterBodyBytes, count: count, path: path)
    }

    func expireAccessTokens() async {
        await server.expireAccessTokens()
    }

    func dropRealtimeConnections() {
        server.realtime.dropConnections()
    }

    func clear() {
        server.faults.clear()
        server.bodyFaults.clear()
    }
}

/// The faults of a soak against a reference server in another process, scripted over its
/// `/debug` routes (`POST /debug/faults`, `POST /debug/body-faults`,
/// `POST /debug/auth/expire-tokens`, `POST /debug/realtime/drop` and the `DELETE`s that clear
/// them), on a client of their own that never retries: a control call that fails is reported,
/// not repeated.
struct RemoteSoakFaults: SoakFaultControls {
    private let client: APIClient

    /// Controls for the server at `baseURL`, over `transport`.
    init(baseURL: URL, transport: any Transport) {
        client = APIClient(
            configuration: ClientConfiguration(baseURL: baseURL, middleware: [], retryPolicy: .none),
            transport: transport
        )
    }

    /// A scripted fault, as `POST /debug/faults` reads it.
    private struct Fault: Encodable {
        var path: String
        var method: String
        var count: Int
        var fault: String
        var status: Int?
    }

    /// A scripted body cut, as `POST /debug/body-faults` reads it.
    private struct BodyCut: Encodable {
        var path: String
        var afterBodyBytes: Int
        var count: Int
    }

    func dropConnections(method: String, path: String, count: Int) async throws {
        try await send(.post, "/debug/faults", body: .json(Fault(path: path, method: method, count: count, fault: "dropConnection")))
    }

    func answer(status: Int, method: String, path: String, count: Int) async throws {
        try await send(.post, "/debug/faults", body: .json(Fault(path: path, method: method, count: count, fault: "status", status: status)))
    }

    func cutBodies(afterBodyBytes: Int, path: String, count: Int) async throws {
        try await send(.post, "/debug/body-faults", body: .json(BodyCut(path: path, afterBodyBytes: afterBodyBytes, count: count)))
    }

    func expireAccessTokens() async throws {
        try await send(.post, "/debug/auth/expire-tokens")
    }

    func dropRealtimeConnections() async throws {
        try await send(.post, "/debug/realtime/drop")
    }

    func clear() async throws {
        try await send(.delete, "/debug/faults")
        try await send(.delete, "/debug/body-faults")
    }

    private func send(_ method: HTTPRequest.Method, _ path: String, body: RequestBody? = nil) async throws {
        _ = try await client.send(Request<Data>(method: method, path: path, body: body, name: "soak.fault"))
    }
}
