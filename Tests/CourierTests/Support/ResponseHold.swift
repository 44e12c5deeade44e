import Courier
import HTTPTypes
import Synchronization

/// A network middleware that holds the answer to the first request with a given method and
/// path until the test lets it go: the request has reached the server (its answer is in
/// hand), and the call is still in flight for everything above the network middleware.
///
/// A test waits for ``held`` instead of sleeping until the request has arrived, and keeps the
/// call in flight for as long as it needs instead of asking the server to answer slowly.
/// Cancelling the held call's task ends the hold with `CancellationError`.
final class ResponseHold: Sendable {
    private struct State {
        var taken = false
        var released = false
        var waiting: CheckedContinuation<Void, Never>?
    }

    private let method: HTTPRequest.Method
    private let path: String
    private let state = Mutex(State())
    /// Counts to 1 when the answer is held.
    let held = EventCounter()

    /// - Parameters:
    ///   - method: The method of the request whose answer to hold.
    ///   - path: Its path, exactly (query included, if any).
    init(method: HTTPRequest.Method, path: String) {
        self.method = method
        self.path = path
    }

    /// Lets the held answer (or the one still to come) through.
    func release() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.released = true
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume()
    }

    /// The middleware to install as network middleware.
    var middleware: ClosureMiddleware {
        ClosureMiddleware { [self] request, body, context, next in
            let answer = try await next(request, body, context)
            guard request.method == method, request.path == path, takeTurn() else { return answer }
            held.record()
            await waitForRelease()
            try Task.checkCancellation()
            return answer
        }
    }

    /// Whether this is the first matching answer (the one to hold).
    private func takeTurn() -> Bool {
        state.withLock { state in
            defer { state.taken = true }
            return !state.taken
        }
    }

    private func waitForRelease() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let goOn = state.withLock { state -> Bool in
                    if state.released || Task.isCancelled { return true }
                    state.waiting = continuation
                    return false
                }
                if goOn { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiting = nil }
                return state.waiting
            }
            waiting?.resume()
        }
    }
}
