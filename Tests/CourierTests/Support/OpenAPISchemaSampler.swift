import Courier
import Foundation

/// An OpenAPI 3.1 document read as JSON, which makes what its schemas allow and checks what
/// they are sent: an origin "that answers exactly as the document allows" for tests, written
/// from the schemas rather than by hand, so nothing in it agrees with the client by accident.
///
/// It understands what CLARITY's document uses: `$ref`, `type` (one or a list), `anyOf` and
/// `oneOf`, `properties`/`required`, `items`, `additionalProperties`, `enum`/`const`, and the
/// `date-time`, `date` and `uuid` formats.
struct OpenAPISchemaSampler: Sendable {
    /// Which properties a sample carries.
    enum Completeness: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Every property the schema names, each with a value (the first non-null choice).
        case everyProperty
        /// Only the required ones.
        case requiredOnly
        var description: String { rawValue }
    }

    let document: JSONValue
    /// What a `date-time` string is sampled as; the service writes several forms.
    var dateTime = "2025-06-15T08:30:00.123456Z"
    /// What an `integer` is sampled as.
    var integer = 3

    init(contentsOf url: URL) throws {
        document = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
    }

    /// The CLARITY backend's published document, as committed in this repository.
    static func clarity() throws -> OpenAPISchemaSampler {
        try OpenAPISchemaSampler(contentsOf: clarityDocumentURL)
    }

    /// `Contracts/clarity-backend/openapi.json` in this repository.
    static let clarityDocumentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Contracts/clarity-backend/openapi.json")

    /// The operation at a path template and method, such as (`get`, `/api/v1/auth/me`).
    func operation(_ method: String, _ template: String) -> [String: JSONValue]? {
        guard case .object(let paths)? = document["paths"], case .object(let item)? = paths[template],
              case .object(let operation)? = item[method.lowercased()] else { return nil }
        return operation
    }

    /// Every (method, path template) of the document.
    var operations: [(method: String, template: String)] {
        guard case .object(let paths)? = document["paths"] else { return [] }
        return paths.flatMap { template, item -> [(String, String)] in
            guard case .object(let methods) = item else { return [] }
            return methods.keys.map { ($0.uppercased(), template) }
        }
    }

    /// The first 2xx response's status and JSON schema of an operation.
    func success(of operation: [String: JSONValue]) -> (status: Int, schema: JSONValue?)? {
        guard case .object(let responses)? = operation["responses"] else { return nil }
        for status in responses.keys.compactMap(Int.init).sorted() where (200..<300).contains(status) {
            let content = responses[String(status)]?["content"]?["application/json"]?["schema"]
            return (status, content)
        }
        return nil
    }

    /// The JSON schema of an operation's request body, if it has one.
    func requestSchema(of operation: [String: JSONValue]) -> JSONValue? {
        operation["requestBody"]?["content"]?["application/json"]?["schema"]
    }

    // MARK: - Samples

    /// A value the schema allows.
    func sample(_ schema: JSONValue, _ completeness: Completeness, depth: Int = 0) -> JSONValue {
        let schema = resolved(schema)
        if let constant = schema["const"] { return constant }
        if case .array(let values)? = schema["enum"], let first = values.first { return first }
        if case .array(let choices)? = schema["anyOf"] ?? schema["oneOf"] {
            let concrete = choices.first { resolved($0)["type"] != .string("null") } ?? .object(["type": .string("null")])
            return sample(concrete, completeness, depth: depth)
        }
        switch types(of: schema).first(where: { $0 != "null" }) ?? "object" {
        case "string":
            switch schema["format"] {
            case .string("date-time")?: return .string(dateTime)
            case .string("date")?: return .string("2025-06-15")
            case .string("uuid")?: return .string("7d5b0f3e-2a7c-4c1e-9a51-3f1e2b6c8d90")
            default: return .string("text")
            }
        case "integer": return .number(Double(integer))
        case "number": return .number(0.75)
        case "boolean": return .bool(true)
        case "array":
            guard depth < 6, let items = schema["items"] else { return .array([]) }
            return .array([sample(items, completeness, depth: depth + 1)])
        default:
            var object: [String: JSONValue] = [:]
            let required = Set(strings(schema["required"]))
            if case .object(let properties)? = schema["properties"], depth < 6 {
                for (name, property) in properties where completeness == .everyProperty || required.contains(name) {
                    object[name] = sample(property, completeness, depth: depth + 1)
                }
            }
            return .object(object)
        }
    }

    // MARK: - Checks

    /// What in `value` the schema does not allow, as readable lines; empty when it conforms.
    func violations(of value: JSONValue, against schema: JSONValue, at path: String = "$") -> [String] {
        let schema = resolved(schema)
        if case .array(let choices)? = schema["anyOf"] ?? schema["oneOf"] {
            let fits = choices.contains { violations(of: value, against: $0, at: path).isEmpty }
            return fits ? [] : ["\(path): matches none of the schema's choices"]
        }
        let allowed = types(of: schema)
        guard !allowed.isEmpty else { return [] }
        let actual: String
        switch value {
        case .null: actual = "null"
        case .bool: actual = "boolean"
        case .string: actual = "string"
        case .number(let number): actual = number.rounded() == number && allowed.contains("integer") ? "integer" : "number"
        case .array: actual = "array"
        case .object: actual = "object"
        }
        guard allowed.contains(actual) || (actual == "integer" && allowed.contains("number")) else {
            return ["\(path): \(actual) where the schema allows \(allowed.joined(separator: " or "))"]
        }
        switch value {
        case .object(let object):
            var problems = strings(schema["required"]).filter { object[$0] == nil }.map { "\(path): missing required \"\($0)\"" }
            if case .object(let properties)? = schema["properties"] {
                for (name, property) in properties {
                    if let field = object[name] { problems += violations(of: field, against: property, at: "\(path).\(name)") }
                }
            }
            return problems
        case .array(let elements):
            guard let items = schema["items"] else { return [] }
            return elements.enumerated().flatMap { violations(of: $1, against: items, at: "\(path)[\($0)]") }
        default:
            return []
        }
    }

    // MARK: - Helpers

    /// A schema with its `$ref` followed (to `#/components/schemas/…`).
    func resolved(_ schema: JSONValue) -> JSONValue {
        guard case .string(let reference)? = schema["$ref"], reference.hasPrefix("#/") else { return schema }
        var node = document
        for part in reference.dropFirst(2).split(separator: "/") {
            guard let next = node[String(part)] else { return .object([:]) }
            node = next
        }
        return resolved(node)
    }

    private func types(of schema: JSONValue) -> [String] {
        switch schema["type"] {
        case .string(let type)?: return [type]
        case .array(let types)?: return strings(.array(types))
        default: return schema["properties"] != nil ? ["object"] : []
        }
    }

    private func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let values)? = value else { return [] }
        return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
}

extension JSONValue {
    /// The member of an object, or `nil` for a missing key or a value of another kind.
    subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// JSON text, with whole numbers written without a fraction (`3`, not `3.0`).
    var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value):
            let data = (try? JSONEncoder().encode(value)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        case .array(let values): return "[" + values.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { JSONValue.string($0).jsonText + ":" + (members[$0] ?? .null).jsonText }.joined(separator: ",") + "}"
        }
    }
}
