import Foundation

/// Finds the DER-encoded SubjectPublicKeyInfo inside a DER-encoded X.509 certificate.
///
/// Pins hash the SubjectPublicKeyInfo exactly as the certificate carries it. Apple's Security
/// framework hands out a certificate's DER (`SecCertificateCopyData`) but a key only in its
/// raw form (`SecKeyCopyExternalRepresentation`, without the algorithm header), so the
/// URLSession pin check reads the SubjectPublicKeyInfo out of the certificate instead of
/// rebuilding it per key type. Only the outer structure is walked (RFC 5280, section 4.1):
///
/// ```
/// Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }
/// TBSCertificate ::= SEQUENCE { [0] version OPTIONAL, serialNumber, signature,
///                               issuer, validity, subject, subjectPublicKeyInfo, … }
/// ```
///
/// Nothing here needs Apple's frameworks, so it is built and tested on every platform.
enum SubjectPublicKeyInfoReader {
    private static let sequenceTag: UInt8 = 0x30
    private static let explicitVersionTag: UInt8 = 0xA0
    /// serialNumber, signature, issuer, validity and subject come before the key.
    private static let fieldsBeforeKey = 5

    /// The SubjectPublicKeyInfo element (tag, length and contents) of a certificate.
    /// - Parameter certificateDER: The certificate in DER.
    /// - Returns: The element's bytes, or `nil` when the input is not a DER certificate.
    static func subjectPublicKeyInfo(inCertificate certificateDER: Data) -> Data? {
        let bytes = [UInt8](certificateDER)
        guard let certificate = element(in: bytes, at: 0), certificate.tag == sequenceTag,
              certificate.end == bytes.count,
              let tbs = element(in: bytes, at: certificate.contentStart), tbs.tag == sequenceTag else {
            return nil
        }
        var cursor = tbs.contentStart
        if let version = element(in: bytes, at: cursor, limit: tbs.end), version.tag == explicitVersionTag {
            cursor = version.end
        }
        for _ in 0..<fieldsBeforeKey {
            guard let skipped = element(in: bytes, at: cursor, limit: tbs.end) else { return nil }
            cursor = skipped.end
        }
        guard let key = element(in: bytes, at: cursor, limit: tbs.end), key.tag == sequenceTag else { return nil }
        return Data(bytes[key.start..<key.end])
    }

    /// Where one DER element sits in a buffer.
    private struct Element {
        var tag: UInt8
        /// The index of the tag byte.
        var start: Int
        /// The index of the first content byte.
        var contentStart: Int
        /// The index just past the last content byte.
        var end: Int
    }

    /// Reads the element starting at `start`, if it is well formed and ends by `limit`.
    ///
    /// Only what DER allows is accepted: a one-byte tag, and a definite length in short form
    /// or in long form of up to four bytes.
    private static func element(in bytes: [UInt8], at start: Int, limit: Int? = nil) -> Element? {
        let limit = min(limit ?? bytes.count, bytes.count)
        guard start >= 0, start + 2 <= limit else { return nil }
        let tag = bytes[start]
        guard tag & 0x1F != 0x1F else { return nil }
        let firstLengthByte = bytes[start + 1]
        var contentStart = start + 2
        var length = 0
        if firstLengthByte < 0x80 {
            length = Int(firstLengthByte)
        } else {
            let lengthByteCount = Int(firstLengthByte & 0x7F)
            guard (1...4).contains(lengthByteCount), contentStart + lengthByteCount <= limit else { return nil }
            for index in contentStart..<(contentStart + lengthByteCount) {
                length = length << 8 | Int(bytes[index])
            }
            contentStart += lengthByteCount
        }
        let end = contentStart + length
        guard end <= limit else { return nil }
        return Element(tag: tag, start: start, contentStart: contentStart, end: end)
    }
}
