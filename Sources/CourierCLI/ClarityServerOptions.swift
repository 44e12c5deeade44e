import ArgumentParser
import ClarityAPI
import ClarityOpenAPI
import Courier
import Foundation
import ReferenceServer

/// Where `courier clarity …` sends its requests, with which engine, and where the credential
/// of `--server` is kept. Without `--server`, a reference server is started in this process
/// and the command signs in as its demo account; nothing is kept then.
struct ClarityServerOptions: ParsableArguments {
    @Option(help: "The server's base URL, with or without /api/v1 (default: an embedded reference server on a free loopback port, signed in as its demo account).")
    var server: String?

    @Flag(help: "Allow plain http:// to a host other than this machine (passwords and tokens then travel unencrypted).")
    var insecure = false

    @Option(help: "The engine: ahc (AsyncHTTPClient) or urlsession.")
    var transport: HTTPCallTransport = .ahc

    @Option(help: ArgumentHelp(
        "Where --server's credential is kept (default: $COURIER_CREDENTIALS, else the per-server file of `courier login` in ~/.config/courier/credentials/). Owner-only; it only ever goes to the server that issued it.",
        valueName: "file"
    ))
    var credentials: String?

    /// Whether the calls go to a reference server started in this process.
    var isEmbedded: Bool { server == nil }

    func validate() throws {
        _ = try baseURL()
        if isEmbedded && credentials != nil {
            throw ValidationError("--credentials needs --server: the embedded reference server, and any credential it issues, end with the command")
        }
    }

    /// `--server`'s URL, or `nil` for the embedded reference server.
    /// - Throws: `ValidationError` for a URL that is not http(s), or plain http to a host
    ///   other than loopback without `--insecure`.
    func baseURL() throws -> URL? {
        guard let server else { return nil }
        guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()),
              let origin = Origin(url) else {
            throw ValidationError("not an http(s) URL: \(server)")
        }
        if origin.scheme == "http" && !origin.isLoopback && !insecure {
            throw ValidationError("refusing plain http to \(origin): the password and tokens would travel unencrypted. Use https, or pass --insecure")
        }
        return url
    }

    /// Runs `body` with a CLARITY client for `--server`, on the credential stored for it, or
    /// for a reference server started for the purpose, signed in as its demo account. The
    /// transport (and the embedded server) are shut down afterwards, whether `body` succeeds
    /// or not.
    /// - Parameters:
    ///   - signsInItself: Whether `body` signs in (`login`): no stored credential is needed,
    ///     and the embedded server's demo account is not signed in first.
    ///   - body: What to do with the client and the server it talks to.
    /// - Throws: `ValidationError` for a bad `--server`, or `--server` without a stored
    ///   credential; `CourierError` when the stored credential was issued by another server,
    ///   and for every failed call.
    func withClient<T>(signsInItself: Bool = false, _ body: (ClarityClient, ClarityTarget) async throws -> T) async throws -> T {
        try validate()
        let remote = try baseURL()
        var file: URL?
        if let remote { file = try await checkedCredentialFile(for: remote, needsCredential: !signsInItself) }
        do {
            return try await AppCommandServer.run(
                remote: remote, transport: transport,
                note: { "using the embedded reference server at \($0.absoluteString): it holds no health data or insights to begin with, and forgets everything when the command ends" }
            ) { url, transport, isEmbedded in
                guard let origin = Origin(url) else { throw ValidationError("the server URL has no host: \(url.absoluteString)") }
                let store: any CredentialStore
                if let file { store = FileCredentialStore(url: file) } else { store = InMemoryCredentialStore() }
                let clarity = ClarityClient(baseURL: url, transport: transport, store: store)
                if isEmbedded && !signsInItself {
                    let demo = ReferenceServerConfiguration()
                    try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
                }
                return try await body(clarity, ClarityTarget(url: url, origin: origin, credentialFile: file))
            }
        } catch {
            throw hinted(error, remote: remote, signsInItself: signsInItself)
        }
    }

    /// The credential file for `url`: `--credentials`, else `COURIER_CREDENTIALS`, else the
    /// per-server file `courier login` uses, so that both commands share one sign-in.
    func credentialFile(for url: URL) -> URL {
        if let credentials { return URL(fileURLWithPath: credentials) }
        if let path = ProcessInfo.processInfo.environment["COURIER_CREDENTIALS"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return Self.defaultCredentialFile(for: url)
    }

    /// The credential file for `url`, checked: a credential in it was issued by this server.
    /// - Parameter needsCredential: Whether the file must hold a credential already.
    /// - Throws: `ValidationError` when a credential is needed and there is none;
    ///   `CourierError.Code.unauthorized` when another (or an unknown) server issued it.
    private func checkedCredentialFile(for url: URL, needsCredential: Bool) async throws -> URL {
        let file = credentialFile(for: url)
        guard let origin = Origin(url) else { throw ValidationError("the server URL has no host: \(url.absoluteString)") }
        guard try await FileCredentialStore(url: file).load() != nil else {
            if needsCredential {
                throw ValidationError("\(file.path) holds no credential for \(origin): sign in first with `\(loginCommand(for: url))`")
            }
            return file
        }
        let isDefault = file.standardizedFileURL == Self.defaultCredentialFile(for: url).standardizedFileURL
        try CredentialIssuer(credentialFile: file).check(for: origin, impliedByFileName: isDefault, credentialFile: file)
        return file
    }

    /// `error`, with the way to sign in again when `--server` refused the stored credential.
    private func hinted(_ error: any Error, remote: URL?, signsInItself: Bool) -> any Error {
        guard var refused = error as? CourierError, refused.code == .unauthorized, let remote, !signsInItself else { return error }
        refused.message += "; sign in again with `\(loginCommand(for: remote))`"
        return refused
    }

    /// `courier clarity login --server URL [--credentials FILE]`.
    private func loginCommand(for url: URL) -> String {
        "courier clarity login --server \(url.absoluteString)" + (credentials.map { " --credentials \($0)" } ?? "")
    }

    /// The per-server credential file in `~/.config/courier/credentials/`, as `courier login` names it.
    private static func defaultCredentialFile(for url: URL) -> URL {
        FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".config/courier/credentials")
            .appendingPathComponent(ServerOptions.fileName(for: url))
    }

}

/// The server a `courier clarity` command talks to, and where its credential is kept.
struct ClarityTarget: Sendable {
    /// The base URL the client was made with.
    let url: URL
    /// Its origin.
    let origin: Origin
    /// The credential file, or `nil` for the embedded server, whose credential is kept in memory.
    let credentialFile: URL?
}

/// Reads the `HealthDataUpload` document `courier clarity upload --file` submits.
enum ClarityUploadFile {
    /// The document in the file at `path`; its dates are ISO 8601, fractions allowed.
    /// - Throws: `ValidationError` when the file cannot be read or is not such a document.
    static func read(_ path: String) throws -> HealthDataUpload {
        let url = URL(fileURLWithPath: path)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ValidationError("cannot read --file \(url.path): \(error.localizedDescription)")
        }
        do {
            return try ClarityDateTranscoder.jsonDecoder().decode(HealthDataUpload.self, from: data)
        } catch {
            throw ValidationError(CourierError.decodingFailed(error, in: "\(url.path) is not a HealthDataUpload document").message)
        }
    }
}
