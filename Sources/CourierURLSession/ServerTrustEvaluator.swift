#if canImport(Security) && canImport(CryptoKit)
import Courier
import CryptoKit
import Foundation
import Security

/// A session delegate that judges servers by a `TLSPolicy`: it evaluates the
/// server's `SecTrust` against the policy's trust roots, then looks for a pinned key in the
/// validated chain. Apple platforms only.
///
/// It answers the task-level challenge (`urlSession(_:task:didReceive:completionHandler:)`),
/// which URLSession calls for server trust when the delegate has no session-level handler, so
/// that a refusal can be recorded against its task in a ``ServerTrustFailureLog``: refusing
/// cancels the challenge, and URLSession itself reports only `URLError.cancelled`.
///
/// `Sendable` without `@unchecked`: a `final class` whose stored properties are immutable and
/// `Sendable` (the log keeps its state behind a `Mutex`).
final class ServerTrustEvaluator: NSObject, URLSessionTaskDelegate, Sendable {
    private let policy: TLSPolicy
    private let failures: ServerTrustFailureLog

    /// Makes an evaluator.
    /// - Parameters:
    ///   - policy: The policy, already validated.
    ///   - failures: Where refusals are recorded for ``DataTaskRunner``.
    /// - Throws: A `CourierError` with code `CourierError.Code.invalidRequest`
    ///   when a trust root is not a DER certificate.
    init(policy: TLSPolicy, failures: ServerTrustFailureLog) throws {
        for (index, der) in policy.trustRoots.customCertificates.enumerated()
        where SecCertificateCreateWithData(nil, der as CFData) == nil {
            throw CourierError(code: .invalidRequest, message: "TLS policy: trust root \(index) is not a DER-encoded certificate")
        }
        self.policy = policy
        self.failures = failures
        super.init()
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
              let trust = challenge.protectionSpace.serverTrust else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        do {
            try evaluate(trust)
            completionHandler(.useCredential, URLCredential(trust: trust))
        } catch {
            failures.record(error, forTask: task.taskIdentifier)
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }

    /// Evaluates the trust with the policy's roots (and the host name URLSession already set),
    /// then checks the pins against the validated chain, leaf to anchor.
    private func evaluate(_ trust: SecTrust) throws(CourierError) {
        let anchors = policy.trustRoots.customCertificates.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
        if !anchors.isEmpty {
            SecTrustSetAnchorCertificates(trust, anchors as CFArray)
            SecTrustSetAnchorCertificatesOnly(trust, !policy.trustRoots.includesSystemRoots)
        }
        var trustError: CFError?
        guard SecTrustEvaluateWithError(trust, &trustError) else {
            let reason = trustError.map { String(describing: $0) } ?? "no reason given"
            throw CourierError(code: .tlsFailure, message: "the server's certificate chain is not trusted: \(reason)", underlying: trustError)
        }
        guard policy.pinsPublicKeys else { return }
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        do {
            try policy.checkPins(chain.compactMap(Self.pin(of:)))
        } catch {
            throw CourierError(code: .tlsFailure, message: "\(error)", underlying: error)
        }
    }

    /// The pin of a certificate's key: base64 of SHA-256 of its DER SubjectPublicKeyInfo.
    private static func pin(of certificate: SecCertificate) -> String? {
        let der = SecCertificateCopyData(certificate) as Data
        guard let spki = SubjectPublicKeyInfoReader.subjectPublicKeyInfo(inCertificate: der) else { return nil }
        return TLSPolicy.spkiPin(sha256Digest: SHA256.hash(data: spki))
    }
}
#endif
