import RadarAPI

/// The soak's fault schedule: one fault every period, the kinds in a fixed rotation, so two
/// runs of the same length see the same faults at the same times.
///
/// The faults are scripted on the server through ``SoakFaultControls`` (in this process or
/// over `/debug` routes), and the outage on the client's ``SoakNetworkPath``:
///
/// 1. dropped connections: the next two POSTs to `/api/radars` and the next GET of each
///    plain-read path are closed without an answer, and the next `/api/radars` response is
///    cut after 16 bytes of body (a write the server applied, whose answer is lost: the
///    retry with the same key must be answered from the idempotency store);
/// 2. a burst of 503s on the plain-read paths, on `/api/radars` POSTs and on uploads;
/// 3. every access token expires (the session must refresh once and carry on);
/// 4. an offline period: the network path is down for ``SoakPlan/outageLength``, so keyed
///    writes are queued, then replayed when it comes back;
/// 5. a realtime drop: every WebSocket is closed without a close frame (it must reconnect).
struct SoakFaults: Sendable {
    /// The kinds of fault, in the order they come.
    enum Kind: String, CaseIterable, Sendable {
        case droppedConnection = "dropped_connection"
        case serviceUnavailableBurst = "burst_503"
        case tokenExpiry = "token_expiry"
        case offlinePeriod = "offline_period"
        case realtimeDrop = "realtime_drop"
    }

    let controls: any SoakFaultControls
    let network: SoakNetworkPath
    /// The paths of the traffic's plain reads.
    let plainReadPaths: [String]
    let period: Duration
    let outageLength: Duration
    let tally: SoakTally

    /// Injects a fault every period after `start` until `deadline`; an offline period is over
    /// by the deadline.
    func run(from start: ContinuousClock.Instant, until deadline: ContinuousClock.Instant) async {
        var next = start + period
        var index = 0
        while next < deadline {
            try? await Task.sleep(until: next, clock: .continuous)
            let kind = Kind.allCases[index % Kind.allCases.count]
            do {
                try await inject(kind, deadline: deadline)
                tally.recordFault(kind.rawValue)
            } catch {
                // A control call to a server in another process failed: the fault did not
                // (wholly) happen. Counted apart, so that the report does not claim it.
                tally.recordFault("\(kind.rawValue)_not_scripted")
            }
            index += 1
            next += period
        }
    }

    private func inject(_ kind: Kind, deadline: ContinuousClock.Instant) async throws {
        let collection = RadarEndpoints.collectionPath
        switch kind {
        case .droppedConnection:
            try await controls.dropConnections(method: "POST", path: collection, count: 2)
            for path in plainReadPaths { try await controls.dropConnections(method: "GET", path: path, count: 1) }
            try await controls.cutBodies(afterBodyBytes: 16, path: collection, count: 1)
        case .serviceUnavailableBurst:
            try await controls.answer(status: 503, method: "POST", path: collection, count: 3)
            for path in plainReadPaths { try await controls.answer(status: 503, method: "GET", path: path, count: 4) }
            try await controls.answer(status: 503, method: "POST", path: "/debug/multipart", count: 2)
        case .tokenExpiry:
            try await controls.expireAccessTokens()
        case .offlinePeriod:
            network.goOffline()
            let length = min(outageLength, deadline - ContinuousClock.now)
            if length > .zero { try? await Task.sleep(for: length) }
            network.comeBack()
        case .realtimeDrop:
            try await controls.dropRealtimeConnections()
        }
    }
}
