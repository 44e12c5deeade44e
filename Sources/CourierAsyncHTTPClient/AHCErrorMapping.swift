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

/// Maps AsyncHTTPClient and NIO errors to `CourierError` codes, and tells the failures the
/// server never processed (``CourierError/neverProcessed``) from the ones it may have:
///
/// | never processed | may have been processed |
/// |---|---|
/// | no connection: refused, unreachable, connect or TLS handshake timeout, no connection from the pool in time | a connection or stream lost after the request went out (`remoteConnectionClosed`, a reset, EOF) |
/// | HTTP/2 `REFUSED_STREAM` | HTTP/2 stream reset with another code after the response began, or with any code but `CANCEL` before it |
/// | HTTP/2 stream closed with `CANCEL` before any of the response: a stream above the last one a `GOAWAY` promised to process (NIOHTTP2 closes those with `CANCEL`) | a read or write timeout, the request's deadline |
/// | HTTP/2 stream created after a `GOAWAY`; a request cancelled by the engine, not the caller (handed to a connection already draining); I/O on a channel already closed before any of the response (the request was never written) | anything else |
///
/// Errors it does not know stay `transportFailed`, which no retry policy retries by default.
/// A `CANCEL` before any of the response is read as a `GOAWAY`'s doing: a server that resets a
/// stream it processed with `CANCEL` before answering would see the request again.
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
            // The caller did not cancel: the engine gave the request up, as it does with one
            // handed to a connection that is draining after a GOAWAY. Not the caller's `.cancelled`.
            return wrap(error, code: .connectionLost, neverProcessed: beforeResponse)
        case let error as HTTPClientError:
            return wrap(error, code: code(for: error), neverProcessed: neverProcessed(error))
        case let error as NIOHTTP2Errors.StreamClosed:
            let unprocessed = error.errorCode == .refusedStream || (beforeResponse && error.errorCode == .cancel)
            return wrap(error, code: .connectionLost, neverProcessed: unprocessed)
        case is NIOHTTP2Errors.CreatedStreamAfterGoaway, is NIOHTTP2Errors.StreamIDTooSmall:
            return wrap(error, code: .connectionLost, neverProcessed: beforeResponse)
        case is NIOHTTP2Errors.StreamClosed, is NIOHTTP2Errors.NoSuchStream:
            return wrap(error, code: .connectionLost)
        case let error as NIOSSLError where error == .uncleanShutdown:
            // A close without close_notify is a lost connection, not a failed handshake.
            return wrap(error, code: .connectionLost)
        case is TLSPolicy.PinMismatch, is NIOSSLError, is BoringSSLError, is NIOSSLExtraError, is NIOTLSUnwrappingError:
            return TLSFailureMapping.courierError(for: error) ?? wrap(error, code: .tlsFailure)
        case let error as HTTPParserError:
            // The peer closed the connection in the middle of a message: a truncated body.
            return wrap(error, code: error == .invalidEOFState ? .connectionLost : .invalidResponse)
        case let error as NIOConnectionError:
            return wrap(error, code: .cannotConnect, neverProcessed: true)
        case let error as IOError:
            let code = code(forErrno: error.errnoCode)
            return wrap(error, code: code, neverProcessed: code == .cannotConnect)
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return wrap(error, code: .timedOut, neverProcessed: true)
            // Writing the request on a channel already closed sent none of it.
            case .ioOnClosedChannel: return wrap(error, code: .connectionLost, neverProcessed: beforeResponse)
            case .outputClosed, .inputClosed, .alreadyClosed, .eof: return wrap(error, code: .connectionLost)
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

    private static func wrap(_ error: any Error, code: CourierError.Code, neverProcessed: Bool = false) -> CourierError {
        let message = code == .tlsFailure ? "the TLS connection could not be secured: \(error)" : describe(code)
        var failure = CourierError(code: code, message: message, underlying: error)
        failure.neverProcessed = neverProcessed
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
