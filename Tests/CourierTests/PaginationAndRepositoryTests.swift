import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import HTTPTypes
import RadarAPI
import RadarCore
import ReferenceServer
import Testing

@Suite("Pagination")
struct PaginationTests {
    @Test func offsetPagesWalkEveryRadarOnTheServerAndStartOverWhenIteratedAgain() async throws {
        try await withRunningServer { server, url in
            try await withTransport(AsyncHTTPClientTransport()) { transport in
                var configuration = ClientConfiguration(baseURL: url)
                configuration.middleware.append(BearerTokenMiddleware(token: try await demoToken(server)))
                let client = APIClient(configuration: configuration, transport: transport)
                let all = try await client.value(for: RadarEndpoints.list(limit: 100))
                let pages = Pages.offsetLimit(
                    client: client, limit: 1,
                    request: { offset, limit in RadarEndpoints.list(limit: limit, offset: offset) },
                    itemCount: { $0.count }
                )
                var first: [Radar] = []
                for try await page in pages { first += page }
                var second: [Radar] = []
                for try await page in pages { second += page }
                #expect(first.map(\.id) == all.map(\.id))
                #expect(first.count == 3)
                #expect(second.map(\.id) == first.map(\.id))
            }
        }
    }

    @Test func pageMetaPagesEndWhenThereIsNoNextPage() async throws {
        let transport = MockTransport { request, _ in
            let page = Int(request.path?.split(separator: "=").last ?? "1") ?? 1
            return .json(#"{"data":[\#(page * 10),\#(page * 10 + 1)],"meta":{"currentPage":\#(page),"totalPages":3,"totalCount":6,"hasNextPage":\#(page < 3)}}"#)
        }
        let client = APIClient(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        let pages = Pages<PaginatedResponse<Int>>.pageMeta(client: client) { page in
            Request(path: "/history?page=\(page)")
        }
        var items: [Int] = []
        for try await page in pages { items += page.data }
        #expect(items == [10, 11, 20, 21, 30, 31])
        #expect(transport.requests.count == 3)
    }

    @Test(arguments: [Int.max, 1])
    func aServerWhosePageNumbersDoNotGoForwardEndsWithATypedError(currentPage: Int) async throws {
        // A hostile page number: the largest integer (whose successor would trap), or the
        // same page again and again (which would loop for ever).
        let transport = MockTransport { _, _ in
            .json(#"{"data":[1],"meta":{"currentPage":\#(currentPage),"totalPages":9,"totalCount":9,"hasNextPage":true}}"#)
        }
        let client = APIClient(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        let pages = Pages<PaginatedResponse<Int>>.pageMeta(client: client) { page in Request(path: "/history?page=\(page)") }
        var received = 0
        let error = await courierError { for try await _ in pages { received += 1 } }
        #expect(error?.code == .invalidResponse)
        #expect(received == (currentPage == 1 ? 2 : 1), "the pages that came are kept")
        #expect(transport.requests.count <= 2)
    }

    @Test func aFailingPageEndsTheIterationWithItsError() async throws {
        let transport = MockTransport { request, _ in
            request.path == "/items?offset=0" ? .json("[1,2]") : .status(.internalServerError)
        }
        let client = APIClient(configuration: ClientConfiguration(baseURL: URL(string: "https://a.test")!, retryPolicy: .none), transport: transport)
        let pages = Pages<[Int]>.offsetLimit(client: client, limit: 2, request: { offset, _ in Request(path: "/items?offset=\(offset)") }, itemCount: { $0.count })
        var received: [[Int]] = []
        let error = await courierError { for try await page in pages { received.append(page) } }
        #expect(received == [[1, 2]])
        #expect(error?.code == .serverError)
    }
}

@Suite("The generic repository")
struct RepositoryTests {
    private struct Note: Codable, Sendable, Equatable { var id: String; var text: String }

    @Test func readsUseTheCachePolicyAndWritesGoToTheNetwork() async throws {
        let transport = MockTransport { request, body in
            switch (request.method, request.path) {
            case (.get, "/notes"): return MockResponse(status: .ok, headers: [.contentType: "application/json"], body: Data(#"[{"id":"1","text":"a"}]"#.utf8))
            case (.get, "/notes/1"): return .json(#"{"id":"1","text":"a"}"#)
            case (.put, "/notes/1"): return MockResponse(status: .ok, headers: [.contentType: "application/json"], body: body ?? Data())
            case (.delete, "/notes/1"): return .status(.noContent)
            default: return .status(.notFound)
            }
        }
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: URL(string: "https://a.test")!, cache: HTTPCache(storage: MemoryCacheStorage())),
            transport: transport
        )
        let notes = Repository<Note, String>(
            client: client,
            cachePolicy: .ttl(.seconds(300)),
            get: { Request(path: "/notes/\($0)") },
            list: { Request(path: "/notes") },
            save: { Request(method: .put, path: "/notes/\($0.id)", body: .json($0)) },
            delete: { Request(method: .delete, path: "/notes/\($0)") }
        )
        #expect(try await notes.list() == [Note(id: "1", text: "a")])
        #expect(try await notes.list() == [Note(id: "1", text: "a")])
        #expect(transport.requests.filter { $0.request.path == "/notes" }.count == 1, "the second list came from the cache")
        #expect(try await notes.get(id: "1") == Note(id: "1", text: "a"))
        let saved = try await notes.save(Note(id: "1", text: "b"))
        #expect(saved == Note(id: "1", text: "b"))
        try await notes.delete(id: "1")
        #expect(transport.requests.map { $0.request.method } == [.get, .get, .put, .delete])
    }

    @Test func aRepositoryWithoutWritesSaysSo() async throws {
        let client = APIClient(baseURL: URL(string: "https://a.test")!, transport: MockTransport(always: .status(.ok)))
        let readOnly = Repository<Note, String>(client: client, get: { Request(path: "/n/\($0)") }, list: { Request(path: "/n") })
        let error = await courierError { _ = try await readOnly.save(Note(id: "1", text: "x")) }
        #expect(error?.code == .invalidRequest)
    }
}
