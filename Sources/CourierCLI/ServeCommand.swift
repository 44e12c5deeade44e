import ArgumentParser
import Foundation
import NIOSSL
import ReferenceServer

/// `courier serve`: runs the reference server on loopback until stopped.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the reference server on 127.0.0.1 until stopped (Ctrl-C).",
        discussion: """
        The diagnostic and control routes under /debug (fault scripting, token controls, \
        real-time drops, blobs, upload sinks, /debug/ws/echo) need no token, so they are off \
        unless --debug-routes is given; without it, /debug/… answers 404.

        With --tls it serves HTTPS and offers HTTP/2 and HTTP/1.1 by ALPN (WebSockets on \
        HTTP/1.1), with --certificate and --key, or else a certificate for 127.0.0.1 signed by \
        a CA made at start, whose certificate --ca-out writes for clients to trust \
        (courier get --ca FILE). --goaway-after N drains each HTTP/2 connection with a GOAWAY \
        after N requests, as busy servers do.
        """
    )

    @Option(help: "The port; 0 picks a free one.")
    var port: Int = 8080

    @Option(help: "The seed for synthetic opinions.")
    var seed: UInt64 = 42

    @Flag(help: "Mount the unauthenticated /debug routes (faults, token controls, real-time drops, blobs); for tests and demos only.")
    var debugRoutes = false

    @Flag(help: "Serve HTTPS, offering HTTP/2 and HTTP/1.1 by ALPN.")
    var tls = false

    @Option(help: ArgumentHelp("With --tls: the server's certificate chain (PEM).", valueName: "file"))
    var certificate: String?

    @Option(help: ArgumentHelp("With --tls: the certificate's private key (PEM).", valueName: "file"))
    var key: String?

    @Option(help: ArgumentHelp("With --tls and no --certificate: write the CA that signed the server's certificate here (PEM), for clients to trust.", valueName: "file"))
    var caOut: String?

    @Option(help: ArgumentHelp("With --tls: send a GOAWAY on each HTTP/2 connection after this many requests.", valueName: "n"))
    var goawayAfter: Int?

    func validate() throws {
        guard tls || (certificate == nil && key == nil && caOut == nil && goawayAfter == nil) else {
            throw ValidationError("--certificate, --key, --ca-out and --goaway-after need --tls")
        }
        guard (certificate == nil) == (key == nil) else { throw ValidationError("--certificate and --key go together") }
        guard certificate == nil || caOut == nil else { throw ValidationError("--ca-out writes the CA of the certificate made at start; with --certificate there is none") }
        if let goawayAfter, goawayAfter < 1 { throw ValidationError("--goaway-after must be 1 or more") }
    }

    func run() async throws {
        var configuration = ReferenceServerConfiguration(port: port, seed: seed)
        configuration.enablesDebugRoutes = debugRoutes
        if tls {
            configuration.tlsConfiguration = try tlsConfiguration()
            configuration.http2 = HTTP2Options(goAwayAfterRequests: goawayAfter)
        }
        let server = ReferenceServer(configuration: configuration)
        let url = try await server.start()
        Console.line("listening on \(url.absoluteString)")
        let defaults = ReferenceServerConfiguration()
        Console.line("demo account: \(defaults.demoEmail) / \(defaults.demoPassword)")
        if debugRoutes {
            Console.line("debug routes: on, under \(url.absoluteString)/debug (no authentication)")
        }
        await SignalWaiter.waitForInterrupt()
        await server.stop()
    }

    /// The server's TLS configuration: the given certificate and key, or a certificate made at
    /// start by a CA whose certificate goes to `--ca-out`.
    private func tlsConfiguration() throws -> TLSConfiguration {
        if let certificate, let key {
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        }
        let authority = try LocalCertificateAuthority()
        if let caOut {
            try Data(try authority.caPEM().utf8).write(to: URL(fileURLWithPath: caOut), options: .atomic)
            Console.line("CA certificate written to \(caOut)")
        }
        return try authority.serverTLSConfiguration()
    }
}
