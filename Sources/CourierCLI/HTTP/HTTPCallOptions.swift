import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierURLSession
import Foundation

/// What `courier get|post|put|patch|delete URL` takes: a curl for APIs, through Courier's whole
/// chain (retries, redirects with credentials stripped, the RFC 9111 cache, decoding).
struct HTTPCallOptions: ParsableArguments {
    @Argument(help: "The URL (http or https).")
    var url: String

    @Option(name: [.customShort("H"), .customLong("header")], help: "A request header, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Option(help: "A JSON body (sent with Content-Type: application/json).")
    var json: String?

    @Option(name: [.customShort("d"), .customLong("data")], help: "A body: the text itself, or @FILE for a file's bytes.")
    var data: String?

    @Option(help: "A bearer token for this URL's origin (never sent to another one).")
    var bearer: String?

    @Option(help: "A folder for a disk cache kept across runs (RFC 9111; private responses and those sent with a credential are not stored).")
    var cache: String?

    @Option(help: "The engine: ahc (AsyncHTTPClient) or urlsession.")
    var transport: HTTPCallTransport = .ahc

    @Option(help: "Seconds one attempt may take.")
    var timeout: Double = 30

    @Option(name: [.customShort("o"), .customLong("output")], help: "Write the body to this file instead of standard output.")
    var output: String?

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Show the chain's work on standard error as it happens: the cache's answer and why, each attempt with its headers (redacted), status and time, each retry with its wait and what set it, redirects and what they left behind, a renewed credential.")
    var verbose = false

    @Flag(help: "Trace the call (a span for the call, a child per attempt, the chain's decisions as events) and print the spans on standard error when it ends.")
    var trace = false

    @Option(help: ArgumentHelp("Trust the CA certificates in this PEM file (instead of the system's), such as the one `courier serve --tls --ca-out FILE` writes.", valueName: "file"))
    var ca: String?

    /// The TLS policy the options ask for: the system's trust roots, or the CA file's.
    func tlsPolicy() throws -> TLSPolicy {
        guard let ca else { return TLSPolicy() }
        return TLSPolicy(trustRoots: .certificates(try PEMCertificates.der(fromFile: ca)))
    }
}

/// The certificates of a PEM file, in DER.
enum PEMCertificates {
    /// Every `CERTIFICATE` block of the file, decoded.
    /// - Throws: `ValidationError` for an unreadable file, or one with no certificate.
    static func der(fromFile path: String) throws -> [Data] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("cannot read the CA file \(path)")
        }
        var certificates: [Data] = []
        var base64: String?
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line == "-----BEGIN CERTIFICATE-----" {
                base64 = ""
            } else if line == "-----END CERTIFICATE-----", let collected = base64 {
                guard let der = Data(base64Encoded: collected) else { throw ValidationError("the CA file \(path) holds a certificate that is not base64") }
                certificates.append(der)
                base64 = nil
            } else if base64 != nil {
                base64? += line
            }
        }
        guard !certificates.isEmpty else { throw ValidationError("the CA file \(path) holds no PEM certificate") }
        return certificates
    }
}

/// The engines `courier get` and the API commands can use.
enum HTTPCallTransport: String, ExpressibleByArgument, CaseIterable, Sendable {
    case ahc, urlsession

    /// A transport of this kind, with the way to release it.
    func make() -> ManagedTransport {
        switch self {
        case .ahc:
            let transport = AsyncHTTPClientTransport()
            return ManagedTransport(transport: transport) { try? await transport.shutdown() }
        case .urlsession:
            let transport = URLSessionTransport()
            return ManagedTransport(transport: transport) { transport.session.finishTasksAndInvalidate() }
        }
    }

    /// A transport of this kind with a TLS policy.
    /// - Throws: What the engine says of a policy it cannot apply (URLSession on Linux takes
    ///   no trust roots of its own).
    func make(tls: TLSPolicy) throws -> ManagedTransport {
        switch self {
        case .ahc:
            let transport = AsyncHTTPClientTransport(configuration: .init(tls: tls))
            return ManagedTransport(transport: transport) { try? await transport.shutdown() }
        case .urlsession:
            let transport = try URLSessionTransport(configuration: .ephemeral, tls: tls)
            return ManagedTransport(transport: transport) { transport.session.finishTasksAndInvalidate() }
        }
    }
}

/// A transport a command made, and how to shut it down.
struct ManagedTransport: Sendable {
    let transport: any Transport
    let shutdown: @Sendable () async -> Void
}
