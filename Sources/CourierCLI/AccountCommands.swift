import ArgumentParser
import Courier

/// `courier login`: signs in and keeps the credential in an owner-only file.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in (the reference server's demo account by default) and keep the credential."
    )

    @OptionGroup var server: ServerOptions

    func run() async throws {
        let user = try await server.withSession(signInIfNeeded: false) { clarity in
            try await clarity.signIn(email: server.resolvedEmail, password: server.resolvedPassword)
        }
        try server.recordAccount(user.email ?? user.userId)
        print("signed in as \(user.email ?? user.userId); credential kept in \(try server.credentialFile().path) (mode 0600)")
    }
}

/// `courier logout`: revokes the credential on the server and deletes it here.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out and delete the stored credential.")

    @OptionGroup var server: ServerOptions

    func run() async throws {
        try await server.withSession(signInIfNeeded: false) { clarity in try await clarity.signOut() }
        try server.forgetAccount()
        print("signed out; \(try server.credentialFile().path) removed")
    }
}

/// `courier whoami`: the signed-in user.
struct WhoAmICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the signed-in user.")

    @OptionGroup var server: ServerOptions

    func run() async throws {
        let user = try await server.withSession { clarity in try await clarity.currentUser() }
        print("\(user.email ?? "(no email)") (id \(user.userId), email verified: \(user.emailVerified))")
    }
}
