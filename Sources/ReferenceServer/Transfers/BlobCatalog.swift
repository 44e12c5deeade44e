import Foundation
import Synchronization

/// The revisions of the server's downloadable blobs: `/debug/blobs/{name}` serves
/// deterministic bytes that depend on the name, the size asked for and the revision, and
/// revising a name changes its content, `ETag` and `Last-Modified`, as an edited file would.
///
/// `Sendable` without `@unchecked`: the revisions sit in a `Mutex`.
final class BlobCatalog: Sendable {
    /// When revision 0 of every blob was last modified; each revision is a minute later.
    static let firstModified = Date(timeIntervalSince1970: 1_767_225_600)

    private let revisions = Mutex<[String: Int]>([:])

    /// The blob called `name` of `size` bytes, at its current revision.
    func blob(name: String, size: Int) -> Blob {
        Blob(name: name, size: size, revision: revisions.withLock { $0[name, default: 0] })
    }

    /// Makes a new revision of `name`; returns its number.
    @discardableResult
    func revise(name: String) -> Int {
        revisions.withLock { revisions in
            revisions[name, default: 0] += 1
            return revisions[name, default: 0]
        }
    }
}

/// One blob as served: its identity and its validators.
struct Blob: Sendable, Hashable {
    let name: String
    let size: Int
    let revision: Int

    /// A strong validator, different for every name, size and revision.
    var etag: String {
        "\"blob-\(String(SplitMix64.fnv1a(name), radix: 16))-\(size)-r\(revision)\""
    }

    /// The revision's modification date, as an IMF-fixdate.
    var lastModified: String {
        IMFFixdate.string(from: BlobCatalog.firstModified.addingTimeInterval(TimeInterval(60 * revision)))
    }

    /// The generator of the blob's bytes.
    var content: BlobContent {
        BlobContent(seed: SplitMix64.fnv1a(name) ^ UInt64(revision) &* 0x9E37_79B9_7F4A_7C15)
    }
}
