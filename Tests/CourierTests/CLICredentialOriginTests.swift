import ArgumentParser
import Courier
@testable import CourierCLI
import Foundation
import Testing

/// The CLI keeps a stored credential with the server that issued it, and does not send
/// passwords over plain http to another machine.
@Suite("The CLI's credentials stay with their server")
struct CLICredentialOriginTests {
    private func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID().uuidString)").appendingPathComponent("c.json")
    }

    @Test func aCredentialGoesOnlyToTheServerThatIssuedIt() throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let issuer = CredentialIssuer(credentialFile: file)
        let home = Origin(scheme: "https", host: "api.example.com", port: nil)
        try issuer.write(home)
        #expect(issuer.read() == "https://api.example.com")
        #expect(try FileManager.default.attributesOfItem(atPath: issuer.url.path)[.posixPermissions] as? Int == 0o600)
        try issuer.check(for: Origin(scheme: "HTTPS", host: "API.example.com", port: 443), impliedByFileName: false, credentialFile: file)
        let other = Origin(scheme: "https", host: "evil.example", port: nil)
        let refused = #expect(throws: CourierError.self) {
            try issuer.check(for: other, impliedByFileName: false, credentialFile: file)
        }
        #expect(refused?.code == .unauthorized)
        #expect(refused?.message.contains("never sent to https://evil.example") == true)
    }

    @Test func aCredentialOfUnknownOriginIsUsedOnlyFromItsServersOwnFile() throws {
        let file = temporaryFile()
        let issuer = CredentialIssuer(credentialFile: file)
        let origin = Origin(scheme: "http", host: "127.0.0.1", port: 8080)
        try issuer.check(for: origin, impliedByFileName: true, credentialFile: file)
        #expect(throws: CourierError.self) { try issuer.check(for: origin, impliedByFileName: false, credentialFile: file) }
    }

    @Test func plainHTTPToAnotherMachineNeedsInsecure() throws {
        #expect(throws: ValidationError.self) { try ServerOptions.parse(["--server", "http://10.0.0.5:8080"]).baseURL() }
        #expect(throws: ValidationError.self) { try ServerOptions.parse(["--server", "http://api.example.com"]).baseURL() }
        _ = try ServerOptions.parse(["--server", "http://10.0.0.5:8080", "--insecure"]).baseURL()
        _ = try ServerOptions.parse(["--server", "https://api.example.com"]).baseURL()
        _ = try ServerOptions.parse(["--server", "http://127.0.0.1:8080"]).baseURL()
        _ = try ServerOptions.parse(["--server", "http://localhost:8080"]).baseURL()
        _ = try ServerOptions.parse(["--server", "http://[::1]:8080"]).baseURL()
    }
}

@Suite("The CLI refuses values that would trap")
struct CLIInputTests {
    @Test(arguments: ["nan", "inf", "-1", "0", "1e300"])
    func aHeartbeatThatIsNotASensibleNumberOfSecondsIsRefused(value: String) {
        do {
            _ = try RadarWatchCommand.parse(["r_1", "--heartbeat", value])
            Issue.record("--heartbeat \(value) was accepted")
        } catch {
            #expect(RadarWatchCommand.message(for: error).contains("heartbeat"), "refused for the heartbeat, not another argument")
        }
    }

    @Test func aSensibleHeartbeatIsAccepted() throws {
        #expect(try RadarWatchCommand.parse(["r_1", "--heartbeat", "2.5"]).heartbeat == 2.5)
    }
}
