import ArgumentParser
import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import Foundation
import RadarAPI
import ReferenceServer

/// Where the `radar`, `login` and `logout` commands send their requests, and as whom.
struct ServerOptions: ParsableArguments {
    @Option(help: "The server's base URL (default: the API_URL environment variable, else http://127.0.0.1:8080).")
    var server: String?

    @Option(help: "The account to sign in with when no credential is stored (default: the reference server's demo account).")
    var email: String?

    @Option(help: "Its password (default: the demo account's, or the COURIER_PASSWORD environment variable).")
    var password: String?

    @Option(help: "Where the credential is kept (default: $COURIER_CREDENTIALS, else one file per server in ~/.config/courier/credentials/). Owner-only; it only ever goes to the server that issued it.")
    var credentials: String?

    @Flag(help: "Allow plain http:// to a host other than this machine (passwords and tokens then travel unencrypted).")
    var insecure = false

    @Option(help: "The engine: ahc (AsyncHTTPClient) or urlsession.")
    var transport: HTTPCallTransport = .ahc

    /// The base URL to use.
    /// - Throws: `ValidationError` for a URL that is not http(s), or plain http to a host
    ///   other than loopback without `--insecure`.
    func baseURL() throws -> URL {
        let text = server ?? ProcessInfo.processInfo.environment["API_URL"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()),
              let origin = Origin(url) else {
            throw ValidationError("not an http(s) URL: \(text)")
        }
        if origin.scheme == "http" && !origin.isLoopback && !insecure {
            throw ValidationError("refusing plain http to \(origin): the password and tokens would travel unencrypted. Use https, or pass --insecure")
        }
        return url
    }

    /// The origin of the base URL.
    func origin() throws -> Origin {
        guard let origin = Origin(try baseURL()) else { throw ValidationError("the server URL has no host") }
        return origin
    }

    /// The credential file: the one given, else one per server, so that a token one server
    /// issued is never sent to another.
    func credentialFile() throws -> URL {
        if let credentials { return URL(fileURLWithPath: credentials) }
        if let path = ProcessInfo.processInfo.environment["COURIER_CREDENTIALS"] { return URL(fileURLWithPath: path) }
        return try defaultCredentialFile()
    }

    /// The per-server credential file in `~/.config/courier/credentials/`.
    private func defaultCredentialFile() throws -> URL {
        FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".config/courier/credentials")
            .appendingPathComponent(Self.fileName(for: try baseURL()))
    }

    /// Checks that the credential stored in the file, if any, was issued by this server.
    /// - Throws: `CourierError.Code.unauthorized` when another (or an unknown) server issued it.
    func checkCredentialIssuer() async throws {
        let file = try credentialFile()
        guard try await FileCredentialStore(url: file).load() != nil else { return }
        try CredentialIssuer(credentialFile: file).check(
            for: try origin(), impliedByFileName: file.standardizedFileURL == (try defaultCredentialFile()).standardizedFileURL, credentialFile: file
        )
    }

    /// `http-127.0.0.1-8080.json` for `http://127.0.0.1:8080/…`: the server's origin, with
    /// anything but letters, digits, dots and dashes replaced.
    static func fileName(for url: URL) -> String {
        let scheme = (url.scheme ?? "http").lowercased()
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let origin = "\(scheme)-\((url.host ?? "").lowercased())-\(port)"
        let safe = origin.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "." || scalar == "-")
                ? Character(scalar) : "_"
        }
        return String(safe) + ".json"
    }

    var resolvedEmail: String { email ?? ReferenceServerConfiguration().demoEmail }

    var resolvedPassword: String {
        password ?? ProcessInfo.processInfo.environment["COURIER_PASSWORD"] ?? ReferenceServerConfiguration().demoPassword
    }

    /// Runs `body` with a signed-in CLARITY client on a fresh AsyncHTTPClient transport,
    /// signing in first when no credential is stored. A stored credential the server no
    /// longer accepts (a reference server restarted since) is replaced by signing in again as
    /// the account it belonged to (see ``accountForSigningInAgain(recorded:)``), and `body`
    /// runs once more. The transport is shut down afterwards.
    func withSession<T>(signInIfNeeded: Bool = true, _ body: (ClarityClient) async throws -> T) async throws -> T {
        try await checkCredentialIssuer()
        let transport = transport.make()
        let file = try credentialFile()
        let account = CredentialAccount(credentialFile: file)
        let issuer = CredentialIssuer(credentialFile: file)
        let clarity = ClarityClient(baseURL: try baseURL(), transport: transport.transport, store: FileCredentialStore(url: file))
        do {
            var signedInNow = false
            if signInIfNeeded, try await clarity.session.credential == nil {
                try await clarity.signIn(email: resolvedEmail, password: resolvedPassword)
                try account.write(resolvedEmail)
                try issuer.write(try origin())
                signedInNow = true
            }
            let result: T
            do {
                result = try await body(clarity)
            } catch let error as CourierError where error.code == .unauthorized && signInIfNeeded && !signedInNow {
                let (email, password) = try accountForSigningInAgain(recorded: account.read())
                Console.note("the stored credential was refused; signing in as \(email) again")
                try await clarity.signIn(email: email, password: password)
                try account.write(email)
                try issuer.write(try origin())
                result = try await body(clarity)
            }
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    /// The account to sign in as when the stored credential was refused: `--email` when
    /// given, else the account the credential belonged to. The demo account's password is
    /// known; any other needs `--password` or `COURIER_PASSWORD`. Without a recorded account
    /// (a credential file from elsewhere), it does not guess.
    /// - Parameter recorded: The account recorded beside the credential.
    /// - Throws: ``CourierError/Code/unauthorized`` when the account or its password is unknown.
    func accountForSigningInAgain(recorded: String?) throws -> (email: String, password: String) {
        let demo = ReferenceServerConfiguration()
        guard let email = email ?? recorded else {
            throw CourierError(code: .unauthorized, message: "the stored credential was refused, and the account it belongs to is not recorded; sign in again with `courier login --email …`")
        }
        if let password = password ?? ProcessInfo.processInfo.environment["COURIER_PASSWORD"] {
            return (email, password)
        }
        guard email == demo.demoEmail else {
            throw CourierError(code: .unauthorized, message: "the stored credential for \(email) was refused; sign in again with `courier login --email \(email)` (its password through --password or COURIER_PASSWORD)")
        }
        return (email, demo.demoPassword)
    }

    /// Records which account the stored credential belongs to.
    /// - Parameter email: The account's email.
    func recordAccount(_ email: String) throws {
        let file = try credentialFile()
        try CredentialAccount(credentialFile: file).write(email)
        try CredentialIssuer(credentialFile: file).write(try origin())
    }

    /// Forgets which account the stored credential belonged to, and which server issued it.
    func forgetAccount() throws {
        let file = try credentialFile()
        CredentialAccount(credentialFile: file).remove()
        CredentialIssuer(credentialFile: file).remove()
    }

    /// Runs `body` with a Radar client signed in as the stored (or demo) account.
    ///
    /// With no credential stored, the request goes out unsigned first: a server built to seed
    /// 000 alone may have no sign-in at all. Only when it answers 401 does the command sign in
    /// (as ``withSession(signInIfNeeded:_:)`` does) and run `body` again; a 401 means the first
    /// request changed nothing.
    func withRadarClient<T>(_ body: (RadarClient) async throws -> T) async throws -> T {
        try await checkCredentialIssuer()
        if try await FileCredentialStore(url: try credentialFile()).load() == nil {
            let transport = AsyncHTTPClientTransport()
            do {
                let client = APIClient(baseURL: RadarEndpoints.root.serverURL(for: try baseURL()), transport: transport)
                let result = try await body(RadarClient(client: client))
                try await transport.shutdown()
                return result
            } catch let error as CourierError where error.code == .unauthorized {
                try? await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
        return try await withSession { clarity in
            try await body(RadarClient(client: APIClient(
                configuration: Self.radarConfiguration(from: clarity.client.configuration), transport: clarity.client.transport
            )))
        }
    }

    /// The signed client's configuration, for the Radar API: the CLARITY client's base URL
    /// ends in `/api/v1`; Radar's paths start at the server's top.
    private static func radarConfiguration(from signed: ClientConfiguration) -> ClientConfiguration {
        var configuration = signed
        configuration.baseURL = RadarEndpoints.root.serverURL(for: APIRoot("/api/v1").serverURL(for: signed.baseURL))
        return configuration
    }
}
