import Courier
import Foundation
import RadarAPI
import RadarCore
import Synchronization

/// The soak's mixed traffic: each worker runs a fixed rotation of plain reads, cached reads,
/// keyed writes and uploads until the deadline, pausing briefly between operations.
///
/// - A plain read asks the server for the subject radar's opinions or trend, bypassing the cache.
/// - A cached read asks for the subject radar itself through the HTTP cache (served fresh,
///   revalidated, or fetched again after a write invalidated the collection).
/// - A keyed write creates a radar with a name used once (`<prefix><worker>-<n>`) and an
///   `Idempotency-Key`, through `sendOrQueue`: delivered, or stored by the offline queue. A
///   retryable failure is tried again with the same key (at most ``writeTries`` times in all).
///   Keyed writes are paced (``WriteSlots``); a worker whose turn finds no slot reads instead.
/// - An upload sends a 4 KiB multipart form to `/debug/multipart` and checks the receipt.
///
/// Every error is counted in the ``SoakTally``; nothing here throws.
struct SoakTraffic: Sendable {
    /// Hands out the right to make a keyed write, at most one per interval for all workers.
    final class WriteSlots: Sendable {
        private let next = Mutex(ContinuousClock.now)
        private let interval: Duration

        init(interval: Duration) {
            self.interval = interval
        }

        /// Takes a slot if one is due.
        func take() -> Bool {
            let now = ContinuousClock.now
            let interval = self.interval
            return next.withLock { due in
                guard now >= due else { return false }
                due = now + interval
                return true
            }
        }
    }

    /// The answer of `/debug/multipart`: one entry per part received.
    struct UploadReceipt: Decodable, Sendable {
        struct Part: Decodable, Sendable {
            let bytes: Int
        }

        let parts: [Part]
    }

    /// How many times a keyed write is tried, with the same key, before its caller gives up.
    static let writeTries = 3

    /// The rotation each worker follows (shifted by the worker's index).
    private static let rotation: [SoakTally.Operation] = [
        .cachedRead, .plainRead, .cachedRead, .keyedWrite, .cachedRead, .plainRead, .upload, .keyedWrite,
    ]

    /// The uploaded bytes: 4 KiB, the same each time.
    private static let payload = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    /// The Radar client, on the soak's `APIClient` (session, cache, offline queue).
    let radar: RadarClient
    /// The radar the reads are about.
    let subjectId: String
    /// What every keyed write's radar name starts with; unique to the run.
    let namePrefix: String
    let tally: SoakTally
    let writeSlots: WriteSlots
    /// The pause between two operations of a worker.
    let pause: Duration

    /// The paths plain reads use, for the fault schedule to aim at.
    var plainReadPaths: [String] {
        ["/api/radars/\(subjectId)/opinions", "/api/radars/\(subjectId)/trends"]
    }

    /// Runs one worker until `deadline`; an operation started before it is finished.
    func worker(_ index: Int, until deadline: ContinuousClock.Instant) async {
        var step = index
        var written = 0
        while ContinuousClock.now < deadline {
            var operation = Self.rotation[step % Self.rotation.count]
            step += 1
            if operation == .keyedWrite, !writeSlots.take() { operation = .cachedRead }
            tally.begin()
            switch operation {
            case .plainRead:
                await plainRead(step)
            case .cachedRead:
                await cachedRead()
            case .keyedWrite:
                written += 1
                await keyedWrite(name: "\(namePrefix)\(index)-\(written)")
            case .upload:
                await upload()
            case .liveRefresh:
                break
            }
            tally.end()
            try? await Task.sleep(for: pause)
        }
    }

    private func plainRead(_ step: Int) async {
        tally.count(.plainRead)
        do {
            if step.isMultiple(of: 2) {
                var request = RadarEndpoints.opinions(id: subjectId)
                request.options.cachePolicy = .bypass
                _ = try await radar.client.send(request)
            } else {
                var request = RadarEndpoints.trends(id: subjectId)
                request.options.cachePolicy = .bypass
                _ = try await radar.client.send(request)
            }
        } catch {
            tally.recordError(error)
        }
    }

    private func cachedRead() async {
        tally.count(.cachedRead)
        do {
            let response = try await radar.client.send(RadarEndpoints.get(id: subjectId))
            tally.recordCacheStatus(response.metrics.cacheStatus)
        } catch {
            tally.recordError(error)
        }
    }

    private func keyedWrite(name: String) async {
        var request = RadarEndpoints.create(topic: name)
        request.options.idempotencyKey = UUID().uuidString
        var outcome = SoakTally.WriteOutcome.failed
        tries: for attempt in 1...Self.writeTries {
            tally.count(.keyedWrite)
            do {
                switch try await radar.client.sendOrQueue(request) {
                case .delivered:
                    outcome = .delivered
                case .queued:
                    outcome = .queued
                }
                break tries
            } catch {
                tally.recordError(error)
                guard let courier = error as? CourierError, courier.isRetryable, attempt < Self.writeTries else { break tries }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        tally.recordWrite(name, outcome)
    }

    private func upload() async {
        tally.count(.upload)
        var form = MultipartFormData()
        form.append(Self.payload, name: "file", filename: "soak.bin")
        let request = Request<UploadReceipt>(
            method: .post,
            path: "/debug/multipart",
            body: .multipart(form),
            options: RequestOptions(requiresAuth: false),
            name: "soak.upload"
        )
        do {
            let receipt = try await radar.client.upload(request).value().value
            if receipt.parts.count != 1 || receipt.parts.first?.bytes != Self.payload.count {
                tally.recordUploadMismatch()
            }
        } catch {
            tally.recordError(error)
        }
    }
}
