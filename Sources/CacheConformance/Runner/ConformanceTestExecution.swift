import Courier
import Foundation

/// Runs one test: configures the origin, sends the steps in order through a fresh client,
/// checks each response, then checks what the origin saw.
struct ConformanceTestExecution {
    let test: ConformanceTest
    let serverURL: URL
    let control: OriginControl
    let makeClient: CacheConformanceRunner.ClientFactory
    /// How long `pause_after` waits (three seconds in the suite).
    let pauseAfter: Duration
    /// The tests' own times, when the run keeps them (see ``VirtualTimeline``).
    let timeline: VirtualTimeline?

    func run() async -> TestOutcome {
        let uuid = UUID().uuidString.lowercased()
        timeline?.start(uuid)
        defer { timeline?.end(uuid) }
        do {
            try await control.configure(uuid, steps: test.configurationSteps)
        } catch {
            return .setupFailed("could not configure the origin: \(error)")
        }
        let client: APIClient
        let cleanup: @Sendable () async -> Void
        do {
            (client, cleanup) = try await makeClient(serverURL, timeline?.clock(for: uuid) ?? SystemClock())
        } catch {
            return .setupFailed("could not make a client: \(error)")
        }
        let outcome = await runSteps(uuid: uuid, client: client)
        await cleanup()
        return outcome
    }

    private func runSteps(uuid: String, client: APIClient) async -> TestOutcome {
        let clients = StepClients(base: client)
        var responses: [ReceivedResponse] = []
        for (index, step) in test.steps.enumerated() {
            let number = index + 1
            let builder = StepRequest(testID: test.id, uuid: uuid, step: step, number: number, previous: responses.last)
            let response: ReceivedResponse
            do {
                let sent = try await clients.client(followingRedirects: step.redirect != "manual").send(builder.make())
                response = ReceivedResponse(status: sent.status.code, headers: sent.headers, body: sent.value)
            } catch let error as StepRequest.InvalidStep {
                return .setupFailed("step \(number): \(error)")
            } catch {
                return .failed("request \(number) failed: \(Self.describe(error))")
            }
            responses.append(response)
            do {
                try StepResponseCheck(step: step, number: number, uuid: uuid, method: builder.method).verify(response)
            } catch let failure as CheckFailure {
                return failure.outcome
            } catch {
                return .failed("\(error)")
            }
            if timeline != nil {
                // What real time would give a refresh in the background before the next step.
                await client.configuration.cache?.backgroundRefreshesEnded()
            }
            if step.pauseAfter {
                if let timeline {
                    timeline.advance(uuid, by: pauseAfter)
                } else {
                    try? await Task.sleep(for: pauseAfter)
                }
            }
        }
        do {
            let exchanges = try await control.state(uuid)
            try ServerStateCheck(steps: test.steps, responses: responses, exchanges: exchanges).verify()
        } catch let failure as CheckFailure {
            return failure.outcome
        } catch {
            return .setupFailed("could not read the origin's state: \(error)")
        }
        return .passed
    }

    private static func describe(_ error: any Error) -> String {
        if let courier = error as? CourierError { return "\(courier.code): \(courier.message)" }
        return "\(error)"
    }
}

/// The clients a test's steps go through: the factory's client, made to accept every
/// status, and a twin that follows no redirects for steps with `redirect: manual`. Both
/// share the factory client's transport and configuration, and so its cache.
private struct StepClients {
    let following: APIClient
    let manual: APIClient

    init(base: APIClient) {
        var configuration = base.configuration
        configuration.acceptsStatus = { _ in true }
        following = APIClient(configuration: configuration, transport: base.transport)
        configuration.redirectPolicy = .none
        manual = APIClient(configuration: configuration, transport: base.transport)
    }

    func client(followingRedirects: Bool) -> APIClient {
        followingRedirects ? following : manual
    }
}
