import ArgumentParser
import Foundation
import HTTPTypes

/// `courier get URL`.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "GET a URL through Courier's chain; the body goes to standard output.")
    @OptionGroup var options: HTTPCallOptions
    func run() async throws { try await HTTPCall.exit(method: .get, options) }
}

/// `courier post URL`.
struct PostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "post", abstract: "POST to a URL through Courier's chain (--json or -d for the body).")
    @OptionGroup var options: HTTPCallOptions
    func run() async throws { try await HTTPCall.exit(method: .post, options) }
}

/// `courier put URL`.
struct PutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "put", abstract: "PUT to a URL through Courier's chain.")
    @OptionGroup var options: HTTPCallOptions
    func run() async throws { try await HTTPCall.exit(method: .put, options) }
}

/// `courier patch URL`.
struct PatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "patch", abstract: "PATCH a URL through Courier's chain.")
    @OptionGroup var options: HTTPCallOptions
    func run() async throws { try await HTTPCall.exit(method: .patch, options) }
}

/// `courier delete URL`.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "DELETE a URL through Courier's chain.")
    @OptionGroup var options: HTTPCallOptions
    func run() async throws { try await HTTPCall.exit(method: .delete, options) }
}
