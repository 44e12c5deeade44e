import Foundation

/// The directives of `Cache-Control` header fields (RFC 9111, section 5.2), parsed leniently.
///
/// - Directive names are case-insensitive; several field lines are read as one list.
/// - Values may be tokens or quoted strings (`max-age="60"`, `no-cache="Set-Cookie, Foo"`);
///   commas inside quotes do not split directives.
/// - When a directive appears more than once, the first occurrence is used.
/// - A delta-seconds value that is not a non-negative integer is kept as invalid: a response
///   whose `max-age` is invalid is treated as stale, never as fresh for a made-up time.
public struct CacheControl: Sendable, Hashable {
    /// A parsed delta-seconds value.
    public enum DeltaSeconds: Sendable, Hashable {
        /// A valid number of seconds (values past 2³¹ are capped there, as RFC 9111 asks).
        case seconds(Int)
        /// Present but not a valid number.
        case invalid
    }

    private var directives: [String: String?] = [:]

    /// Parses every value of the `Cache-Control` field lines given.
    /// - Parameter fieldValues: The field lines' values, in order.
    public init(_ fieldValues: [String]) {
        for value in fieldValues {
            for (name, argument) in Self.split(value) where directives[name] == nil {
                directives[name] = argument
            }
        }
    }

    /// Whether a directive is present, such as `no-store`.
    public func has(_ name: String) -> Bool {
        directives[ASCII.lowercased(name)] != nil
    }

    /// A directive's argument, without quotes; `nil` if absent or given without one.
    public func argument(_ name: String) -> String? {
        directives[ASCII.lowercased(name)] ?? nil
    }

    /// A delta-seconds directive (`max-age`, `max-stale`, `min-fresh`, `stale-if-error`, …);
    /// `nil` when absent.
    public func seconds(_ name: String) -> DeltaSeconds? {
        guard let entry = directives[ASCII.lowercased(name)] else { return nil }
        guard let text = entry, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return .invalid }
        guard text.count <= 10, let value = Int(text) else { return .seconds(Int(Int32.max)) }
        return .seconds(min(value, Int(Int32.max)))
    }

    /// A delta-seconds directive's value when present and valid.
    public func validSeconds(_ name: String) -> Int? {
        if case .seconds(let value) = seconds(name) { return value }
        return nil
    }

    /// `no-store`.
    public var noStore: Bool { has("no-store") }
    /// `no-cache` (in a response, with or without field names: the whole response must be revalidated).
    public var noCache: Bool { has("no-cache") }
    /// `must-revalidate` or `proxy-revalidate`'s private-cache twin: stale responses are never served.
    public var mustRevalidate: Bool { has("must-revalidate") }
    /// `only-if-cached`.
    public var onlyIfCached: Bool { has("only-if-cached") }
    /// `immutable`.
    public var immutable: Bool { has("immutable") }

    private static func split(_ value: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        var parts: [String] = []
        for character in value {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" && inQuotes {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
                current.append(character)
            } else if character == "," && !inQuotes {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        for part in parts {
            let trimmed = ASCII.trimmed(part)
            guard !trimmed.isEmpty else { continue }
            if let equals = trimmed.firstIndex(of: "=") {
                let name = ASCII.lowercased(ASCII.trimmed(trimmed[..<equals]))
                var argument = String(ASCII.trimmed(trimmed[trimmed.index(after: equals)...]))
                if argument.count >= 2 && argument.hasPrefix("\"") && argument.hasSuffix("\"") {
                    argument = String(argument.dropFirst().dropLast())
                }
                guard !name.isEmpty else { continue }
                result.append((name, argument))
            } else {
                result.append((ASCII.lowercased(trimmed), nil))
            }
        }
        return result
    }
}
