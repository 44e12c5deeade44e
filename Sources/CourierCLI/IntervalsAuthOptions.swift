import ArgumentParser
import Courier
import Foundation
import IntervalsAPI
import ReferenceServer

/// How `courier intervals …` signs its calls: an athlete's personal API key, or an OAuth
/// credential stored in a file earlier. Neither is ever printed.
struct IntervalsAuthOptions: ParsableArguments {
    /// The environment variable read for the API key when `--api-key` is absent.
    static let apiKeyVariable = "INTERVALS_API_KEY"

    @Option(help: ArgumentHelp(
        "An intervals.icu personal API key (default with --server: the INTERVALS_API_KEY environment variable; without --server: the embedded server's demo key).",
        valueName: "key"
    ))
    var apiKey: String?

    @Option(help: ArgumentHelp(
        "A file holding an intervals.icu OAuth credential stored earlier; rotated refresh tokens are saved back to it.",
        valueName: "file"
    ))
    var credentials: String?

    /// The way to sign the calls: `--credentials`, else `--api-key`, else (with `--server`)
    /// `INTERVALS_API_KEY`, else (without `--server`) the embedded reference server's demo key.
    ///
    /// The environment variable is not read for the embedded server: that server knows only
    /// its demo key, and a real key has no business going there.
    /// - Parameter server: The server's base URL, or `nil` for the embedded reference server.
    /// - Throws: `ValidationError` for both options at once, an empty key, a credential file
    ///   that holds nothing or was issued by another server, or a real server without a
    ///   credential; `CourierError` when the credential file is not a credential.
    func signing(for server: URL?) async throws -> IntervalsAuth {
        if apiKey != nil && credentials != nil {
            throw ValidationError("pass either --api-key or --credentials, not both")
        }
        if let credentials {
            let file = URL(fileURLWithPath: credentials)
            // A credential `courier login` stored records its issuer; it never goes elsewhere.
            if let server, let origin = Origin(server), let issuer = CredentialIssuer(credentialFile: file).read(), issuer != origin.description {
                throw ValidationError("\(file.path) holds a credential issued by \(issuer); it is never sent to \(origin)")
            }
            let store = FileCredentialStore(url: file)
            guard try await store.load() != nil else {
                throw ValidationError("\(file.path) holds no credential: store an intervals.icu OAuth credential there first, or pass --api-key")
            }
            return .oauth(store: store)
        }
        if let apiKey {
            guard !apiKey.isEmpty else { throw ValidationError("--api-key is empty") }
            return .apiKey(apiKey)
        }
        guard let server else {
            return .apiKey(ReferenceServerConfiguration().demoAPIKey)
        }
        if let key = ProcessInfo.processInfo.environment[Self.apiKeyVariable], !key.isEmpty {
            return .apiKey(key)
        }
        throw ValidationError(
            "\(Origin(server)?.description ?? server.absoluteString) needs a credential: pass --api-key KEY (or set \(Self.apiKeyVariable)), or --credentials FILE holding an OAuth credential"
        )
    }
}
