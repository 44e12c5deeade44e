import Courier
import HTTPTypes
import Synchronization

/// The soak client's network path: a transport that passes every request to the real one,
/// except while the path is down, when every request fails at once with
/// `CourierError.Code.offline`, as a device without a network would.
///
/// Everything the client sends goes through it: the signed calls, sign-in and refresh, the
/// offline queue's replays and the connectivity probe. While it is down, the connectivity
/// monitor learns from the failures that the client is offline, so queueable writes are
/// stored instead of tried; once it is up again, the probe or the next request that gets an
/// answer brings the monitor back online, and the queue replays.
final class SoakNetworkPath: Transport {
    private let base: any Transport
    private let down = Atomic<Bool>(false)

    /// Makes a path over a real transport, up.
    init(base: any Transport) {
        self.base = base
    }

    /// Whether the path is down now.
    var isDown: Bool { down.load(ordering: .relaxed) }

    /// Takes the path down: requests from now on fail with `.offline`.
    func goOffline() { down.store(true, ordering: .relaxed) }

    /// Brings the path back up.
    func comeBack() { down.store(false, ordering: .relaxed) }

    func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if isDown {
            throw CourierError(code: .offline, message: "the soak's simulated network outage: no path to the server")
        }
        return try await base.send(request, body: body, context: context)
    }
}
