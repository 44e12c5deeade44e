/// How an app can present a ``CourierError`` to a person.
public struct UserFacingError: Sendable, Hashable {
    /// What the app can offer the person.
    public enum SuggestedAction: Sendable, Hashable {
        /// Offer to try again.
        case retry
        /// Ask the person to sign in again.
        case signIn
        /// Nothing the person can do.
        case none
    }

    /// A short title.
    public var title: String
    /// A sentence explaining what happened, in plain words.
    public var message: String
    /// What to offer.
    public var action: SuggestedAction

    /// Makes a user-facing description.
    public init(title: String, message: String, action: SuggestedAction) {
        self.title = title
        self.message = message
        self.action = action
    }
}

extension CourierError {
    /// A title, message and suggested action to show a person. Never contains URLs,
    /// tokens or server internals.
    public var userFacing: UserFacingError {
        switch code {
        case .offline:
            return .init(title: "You're offline", message: "Check your connection and try again.", action: .retry)
        case .timedOut:
            return .init(title: "This is taking too long", message: "The server did not answer in time.", action: .retry)
        case .cannotConnect, .connectionLost, .transportFailed:
            return .init(title: "Can't reach the server", message: "The connection failed. Try again in a moment.", action: .retry)
        case .unauthorized:
            return .init(title: "Please sign in again", message: "Your session has ended.", action: .signIn)
        case .tlsFailure:
            return .init(title: "Connection not secure", message: "The server's identity could not be verified.", action: .none)
        case .forbidden:
            return .init(title: "Not allowed", message: "Your account can't do this.", action: .none)
        case .notFound:
            return .init(title: "Not found", message: "It may have been moved or deleted.", action: .none)
        case .rateLimited:
            return .init(title: "Slow down", message: "Too many requests. Wait a moment and try again.", action: .retry)
        case .serverError:
            return .init(title: "Server problem", message: "Something went wrong on our side. Try again later.", action: .retry)
        case .queued:
            return .init(title: "Saved for later", message: "You're offline. This will be sent when the connection is back.", action: .none)
        case .cancelled:
            return .init(title: "Cancelled", message: "The request was cancelled.", action: .none)
        case .fileSystem:
            return .init(title: "Can't save or read the file", message: "Check the free space on this device and try again.", action: .retry)
        case .notCached:
            return .init(title: "Not available offline", message: "This hasn't been saved on this device yet. Connect and try again.", action: .retry)
        case .tooManyRedirects:
            return .init(title: "Can't open this", message: "The server sent the request around in circles.", action: .none)
        case .queuedWriteAhead:
            return .init(title: "Waiting to sync", message: "An earlier change is still waiting to be sent. Try again when it has gone.", action: .retry)
        case .redirectNotFollowed:
            return .init(title: "Can't open this", message: "The server sent the request somewhere the app won't follow.", action: .none)
        case .clientError:
            return .init(
                title: "Request not accepted",
                message: serverMessage ?? "The server could not accept this request.",
                action: status?.code == 408 ? .retry : .none
            )
        default:
            return .init(title: "Something went wrong", message: "The app received an answer it could not use.", action: .none)
        }
    }
}
