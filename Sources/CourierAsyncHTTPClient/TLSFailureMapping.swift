package import Courier
import NIOSSL

/// Recognises the errors of a failed TLS connection (NIOSSL's and BoringSSL's, and a pin
/// mismatch) and wraps them in a `CourierError` with code
/// `CourierError.Code.tlsFailure`; shared by the engines that run on NIOSSL.
package enum TLSFailureMapping {
    /// The `CourierError` for a TLS failure, or `nil` when `error` is not one.
    ///
    /// A close without `close_notify` (`NIOSSLError.uncleanShutdown`) is not a TLS failure:
    /// it is a lost connection, and the caller maps it as such.
    /// - Parameter error: What the engine threw.
    /// - Returns: The wrapped error, or `nil`.
    package static func courierError(for error: any Error) -> CourierError? {
        switch error {
        case let error as CourierError:
            return error.code == .tlsFailure ? error : nil
        case let error as TLSPolicy.PinMismatch:
            return CourierError(code: .tlsFailure, message: error.description, underlying: error)
        case let error as NIOSSLError:
            return error == .uncleanShutdown ? nil : wrap(error)
        case is BoringSSLError, is NIOSSLExtraError, is NIOTLSUnwrappingError:
            return wrap(error)
        default:
            return nil
        }
    }

    private static func wrap(_ error: any Error) -> CourierError {
        CourierError(code: .tlsFailure, message: "the TLS connection could not be secured: \(error)", underlying: error)
    }
}
