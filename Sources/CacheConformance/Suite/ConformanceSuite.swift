public import Courier
public import Foundation

/// The HTTP cache test suite as exported to `cache-tests.json`: groups of tests, each a
/// sequence of ``ConformanceStep`` values.
public struct ConformanceSuite: Sendable, Decodable {
    /// One group of related tests (the file's `suites[]`).
    public struct Group: Sendable, Decodable {
        /// The group's id, such as `cc-freshness`.
        public var id: String
        /// Its title.
        public var name: String
        /// Its tests.
        public var tests: [ConformanceTest]
    }

    /// Where the tests come from (a repository URL).
    public var source: String?
    /// The commit of the source they were exported from.
    public var commit: String?
    /// The groups, in file order.
    public var groups: [Group]

    enum CodingKeys: String, CodingKey {
        case source, commit
        case groups = "suites"
    }

    /// Reads a suite file.
    /// - Parameter url: The file, such as the repository's `Tests/Conformance/cache-tests.json`.
    /// - Returns: The suite.
    /// - Throws: The read error, or `DecodingError` when the file is not in the suite's format.
    public static func load(from url: URL) throws -> ConformanceSuite {
        try JSONDecoder().decode(ConformanceSuite.self, from: Data(contentsOf: url))
    }

    /// Every test, in file order.
    public var allTests: [ConformanceTest] {
        groups.flatMap(\.tests)
    }

    /// The tests that apply to a private cache such as Courier's: all but those marked
    /// `cdn_only` or `browser_skip`.
    public var privateCacheTests: [ConformanceTest] {
        allTests.filter(\.appliesToPrivateCache)
    }
}

/// How a test's result counts.
public enum ConformanceTestKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Required by the specification; the default.
    case required
    /// What an optimal cache does; a failure is a warning.
    case optimal
    /// Records a behaviour (yes / no).
    case check
}

/// One test of the suite: steps sent in order to one test URL.
public struct ConformanceTest: Sendable, Decodable, Identifiable {
    /// The test's id, such as `freshness-max-age`.
    public var id: String
    /// What it checks, in a sentence.
    public var name: String
    /// How its result counts.
    public var kind: ConformanceTestKind
    /// Its steps.
    public var steps: [ConformanceStep]
    /// Its steps as the file wrote them, forwarded to the origin.
    public var rawSteps: [JSONValue]
    /// Tests that must pass for this one to be scored on its own merits.
    public var dependsOn: [String]
    /// Marked `browser_only`.
    public var browserOnly: Bool
    /// Marked `browser_skip` (shared-cache rules, not for a private cache).
    public var browserSkip: Bool
    /// Marked `cdn_only` (CDN-Cache-Control).
    public var cdnOnly: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, kind, requests
        case dependsOn = "depends_on"
        case browserOnly = "browser_only"
        case browserSkip = "browser_skip"
        case cdnOnly = "cdn_only"
    }

    /// Reads a test; `kind` defaults to `required`.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a field has the wrong shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? id
        kind = try container.decodeIfPresent(ConformanceTestKind.self, forKey: .kind) ?? .required
        steps = try container.decode([ConformanceStep].self, forKey: .requests)
        rawSteps = try container.decode([JSONValue].self, forKey: .requests)
        dependsOn = try container.decodeIfPresent([String].self, forKey: .dependsOn) ?? []
        browserOnly = try container.decodeIfPresent(Bool.self, forKey: .browserOnly) ?? false
        browserSkip = try container.decodeIfPresent(Bool.self, forKey: .browserSkip) ?? false
        cdnOnly = try container.decodeIfPresent(Bool.self, forKey: .cdnOnly) ?? false
    }

    /// Whether the test applies to a private cache: not `cdn_only`, not `browser_skip`.
    public var appliesToPrivateCache: Bool { !cdnOnly && !browserSkip }

    /// The steps as sent to the origin's `PUT /config/<uuid>`: as written, each with the
    /// test's `id`.
    public var configurationSteps: [JSONValue] {
        rawSteps.map { $0.adding("id", .string(id)) }
    }
}
