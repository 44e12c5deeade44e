@testable import CourierCLI
import Testing

@Suite("courier bench: which groups --server can measure")
struct BenchCommandOptionsTests {
    @Test(arguments: [["--only", "throughput"], ["--only", "transfer"], ["--only", "throughput,transfer"], []])
    func aServerInAnotherProcessTakesTheThroughputAndTransferGroups(only: [String]) throws {
        let command = try BenchCommand.parse(["--server", "http://127.0.0.1:8080"] + only)
        #expect(command.server == "http://127.0.0.1:8080")
    }

    @Test(arguments: ["cache", "transfer,queue", "overhead"])
    func aServerInAnotherProcessRefusesGroupsThatDriveTheEmbeddedServer(only: String) {
        #expect(throws: (any Error).self) { try BenchCommand.parse(["--server", "http://127.0.0.1:8080", "--only", only]) }
    }

    @Test func aServerMustBeAnHTTPURL() {
        #expect(throws: (any Error).self) { try BenchCommand.parse(["--server", "ftp://127.0.0.1:21"]) }
    }
}
