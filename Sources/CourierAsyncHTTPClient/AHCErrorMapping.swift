import AsyncHTTPClient
import Courier
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps AsyncHTTPClient and NIO errors to `CourierError` codes, and says what the server saw:
/// ``CourierError/neverProcessed`` where the protocol guarantees the server did not process
/// the request, and ``CourierError/failedBeforeResponse`` where the failure came before any of
/// the answer (`execute` threw).
///
/// | never processed (any method may go again) | may have been processed (idempotent or keyed only) |
/// |---|---|
/// | no connection: refused (`ECONNREFUSED`, a connect failure), connect or TLS handshake timeout, no connection from the pool in time | a connection or stream lost after the request went out: EOF, a reset, `remoteConnectionClosed`, a closed channel |
/// | HTTP/2 `REFUSED_STREAM`; a stream above a `GOAWAY`'s last stream (which ``HTTP2ConnectionGuard`` reports as `REFUSED_STREAM`); a stream opened after a `GOAWAY` | an HTTP/2 stream reset by the server with `CANCEL` or any other code |
/// | | read timeouts, the request's deadline, the engine giving a request up (never the caller's `cancelled`), anything else |
///
/// Errors it does not know stay `transportFailed`, which no retry policy retries by default.
/// The transport adds one case the errors cannot show: a request without a key that no retry
/// could otherwise resend, which failed before the engine read its body (``UnsentBodyWitness``).
enum AHCErrorMapping {
    /// The `CourierError` for an engine's error.
    /// - Parameters:
    ///   - error: What AsyncHTTPClient or NIO threw.
    ///   - beforeResponse: Whether it ended the exchange before any of the response arrived
    ///     (`execute` threw), rather than while its body was read.
    static func map(_ error: any Error, beforeResponse: Bool = false) -> any Error {
        switch error {
        case is CourierError, is CancellationError:
            return error
        case let error as HTTPClientError where error == .cancelled && !Task.isCancelled:
            // The caller did not cancel: the engine gave the request up (its connection closed,
            // or the client shut down). Not the caller's `.cancelled`; it may have gone out.
            return wrap(error, code: .connectionLost, beforeResponse: beforeResponse)
        case let error as HTTPClientError:
            return wrap(error, code: code(for: error), neverProcessed: neverProcessed(error), beforeResponse: beforeResponse)
        case let error as NIOHTTP2Errors.StreamClosed:
            return wrap(error, code: .connectionLost, neverProcessed: error.errorCode == .refusedStream, beforeResponse: beforeResponse)
        case is NIOHTTP2Errors.CreatedStreamAfterGoaway:
            return wrap(error, code: .connectionLost, neverProcessed: true, beforeResponse: beforeResponse)
        case is NIOHTTP2Errors.NoSuchStream, is NIOHTTP2Errors.StreamIDTooSmall:
            return wrap(error, code: .connectionLost, beforeResponse: beforeResponse)
        case let error as NIOSSLError where error == .uncleanShutdown:
            // A close without close_notify is a lost connection, not a failed handshake.
            return wrap(error, code: .connectionLost, beforeResponse: beforeResponse)
        case is TLSPolicy.PinMismatch, is NIOSSLError, is BoringSSLError, is NIOSSLExtraError, is NIOTLSUnwrappingError:
            return TLSFailureMapping.courierError(for: error) ?? wrap(error, code: .tlsFailure)
        case let error as HTTPParserError:
            // The peer closed the connection in the middle of a message: a truncated body.
            return wrap(error, code: error == .invalidEOFState ? .connectionLost : .invalidResponse, beforeResponse: beforeResponse)
        case let error as NIOConnectionError:
            return wrap(error, code: .cannotConnect, neverProcessed: true, beforeResponse: true)
        case let error as IOError:
            // Only a refused connection is sure to be one never made: an unreachable host can
            // also be reported on a connection that carried the request.
            return wrap(error, code: code(forErrno: error.errnoCode), neverProcessed: error.errnoCode == ECONNREFUSED, beforeResponse: beforeResponse)
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return wrap(error, code: .timedOut, neverProcessed: true, beforeResponse: true)
            case .ioOnClosedChannel, .outputClosed, .inputClosed, .alreadyClosed, .eof: return wrap(error, code: .connectionLost, beforeResponse: beforeResponse)
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

    /// Whether an AsyncHTTPClient error means the request never reached a connection.
    private static func neverProcessed(_ error: HTTPClientError) -> Bool {
        switch error {
        case .connectTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout: return true
        default: return false
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

    private static func wrap(_ error: any Error, code: CourierError.Code, neverProcessed: Bool = false, beforeResponse: Bool = false) -> CourierError {
        let message = code == .tlsFailure ? "the TLS connection could not be secured: \(error)" : describe(code)
        var failure = CourierError(code: code, message: message, underlying: error)
        failure.neverProcessed = neverProcessed
        failure.failedBeforeResponse = beforeResponse || neverProcessed
        return failure
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
