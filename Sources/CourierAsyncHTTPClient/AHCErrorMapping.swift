import AsyncHTTPClient
import Courier
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps AsyncHTTPClient and NIO errors to `CourierError` codes.
enum AHCErrorMapping {
    static func map(_ error: any Error) -> any Error {
        switch error {
        case is CourierError, is CancellationError:
            return error
        case let error as HTTPClientError:
            return wrap(error, code: code(for: error))
        case let error as NIOSSLError where error == .uncleanShutdown:
            // A close without close_notify is a lost connection, not a failed handshake.
            return wrap(error, code: .connectionLost)
        case is TLSPolicy.PinMismatch, is NIOSSLError, is BoringSSLError, is NIOSSLExtraError, is NIOTLSUnwrappingError:
            return TLSFailureMapping.courierError(for: error) ?? wrap(error, code: .tlsFailure)
        case let error as HTTPParserError:
            // The peer closed the connection in the middle of a message: a truncated body.
            return wrap(error, code: error == .invalidEOFState ? .connectionLost : .invalidResponse)
        case let error as NIOConnectionError:
            return wrap(error, code: .cannotConnect)
        case let error as IOError:
            return wrap(error, code: code(forErrno: error.errnoCode))
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return wrap(error, code: .timedOut)
            case .ioOnClosedChannel, .outputClosed, .inputClosed, .alreadyClosed, .eof: return wrap(error, code: .connectionLost)
            default: return wrap(error, code: .transportFailed)
            }
        default:
            return wrap(error, code: .transportFailed)
        }
    }

    private static func code(for error: HTTPClientError) -> CourierError.Code {
        switch error {
        case .cancelled, .requestStreamCancelled:
            return .cancelled
        case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout,
             .tlsHandshakeTimeout:
            return .timedOut
        case .remoteConnectionClosed, .bodyLengthMismatch:
            return .connectionLost
        case .invalidURL, .emptyHost, .emptyScheme, .traceRequestWithBody:
            return .invalidRequest
        case .identityCodingIncorrectlyPresent, .contentLengthMissing:
            return .invalidResponse
        default:
            return .transportFailed
        }
    }

    private static func code(forErrno errno: Int32) -> CourierError.Code {
        switch errno {
        case ECONNREFUSED, EHOSTUNREACH, EHOSTDOWN, EADDRNOTAVAIL: return .cannotConnect
        case ENETUNREACH, ENETDOWN: return .offline
        case ECONNRESET, EPIPE, ECONNABORTED: return .connectionLost
        case ETIMEDOUT: return .timedOut
        default: return .transportFailed
        }
    }

    private static func wrap(_ error: any Error, code: CourierError.Code) -> CourierError {
        let message = code == .tlsFailure ? "the TLS connection could not be secured: \(error)" : describe(code)
        return CourierError(code: code, message: message, underlying: error)
    }

    private static func describe(_ code: CourierError.Code) -> String {
        switch code {
        case .cancelled: return "the request was cancelled"
        case .timedOut: return "the request timed out"
        case .connectionLost: return "the connection closed before the response was complete"
        case .cannotConnect: return "could not connect to the server"
        case .offline: return "the network is unreachable"
        case .invalidResponse: return "the response was not valid HTTP"
        case .invalidRequest: return "the request could not be sent as given"
        default: return "the transport failed"
        }
    }
}
