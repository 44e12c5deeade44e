/// An upload or a download under way: its progress as an asynchronous sequence, and its
/// result, awaited separately.
///
/// ```swift
/// let transfer = client.download(Request<Data>(path: "/exports/2026.zip"), to: destination)
/// Task {
///     for await step in transfer.progress { print(step) }
/// }
/// let result = try await transfer.value()
/// ```
///
/// The transfer starts as soon as it is made, in a task of its own, and runs to its end
/// whether or not anyone reads ``progress``. Cancelling the task that awaits ``value()`` or
/// ``result()`` cancels the transfer, as does ``cancel()``.
///
/// ``progress`` is a single-consumer sequence: iterate it from one place. It keeps only the
/// newest values for a reader that falls behind, ends after the last value when the transfer
/// succeeds (that value has every byte done), and ends without a final value when it fails.
public struct Transfer<Value: Sendable>: Sendable {
    /// The transfer's progress, monotonic, ending at the total when it succeeds.
    public let progress: AsyncStream<TransferProgress>

    private let task: Task<Value, any Error>

    /// Starts `operation` in a task of its own, reporting through a fresh ``ProgressReporter``.
    /// The reporter is completed by `operation` on success and failed here on any error.
    init(total: Int64? = nil, operation: @escaping @Sendable (ProgressReporter) async throws -> Value) {
        let reporter = ProgressReporter(total: total)
        self.progress = reporter.stream
        self.task = Task {
            do {
                return try await operation(reporter)
            } catch {
                reporter.fail()
                throw Self.courierError(error)
            }
        }
    }

    /// Makes a transfer whose progress is `progress` and whose value comes from `task`.
    private init(progress: AsyncStream<TransferProgress>, task: Task<Value, any Error>) {
        self.progress = progress
        self.task = task
    }

    /// The same transfer, with its value transformed when it succeeds: for clients that
    /// hand out a decoded value rather than the whole response.
    ///
    /// ```swift
    /// let receipt: Transfer<UploadReceipt> = client.upload(request).map(\.value)
    /// ```
    /// The progress is this transfer's; cancelling either cancels both.
    /// - Parameter transform: Turns the value into another.
    /// - Returns: The transformed transfer.
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Value) throws -> Other) -> Transfer<Other> {
        let base = task
        let mapped = Task<Other, any Error> {
            let value = try await withTaskCancellationHandler {
                try await base.value
            } onCancel: {
                base.cancel()
            }
            return try transform(value)
        }
        return Transfer<Other>(progress: progress, task: mapped)
    }

    /// Waits for the transfer to end and returns its value.
    /// - Returns: The transfer's value.
    /// - Throws: The ``CourierError`` it failed with; ``CourierError/Code/cancelled`` when it was cancelled.
    public func value() async throws -> Value {
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw Self.courierError(error)
        }
    }

    /// Waits for the transfer to end and returns its outcome, without throwing.
    /// - Returns: The value, or the ``CourierError`` the transfer failed with.
    public func result() async -> Result<Value, CourierError> {
        do {
            return .success(try await value())
        } catch {
            return .failure(Self.courierError(error))
        }
    }

    /// Stops the transfer. A download keeps its partial file for a later call to resume,
    /// unless ``DownloadOptions/keepsPartialFile`` is `false`.
    public func cancel() {
        task.cancel()
    }

    /// Whether the transfer's task has been cancelled.
    public var isCancelled: Bool {
        task.isCancelled
    }

    private static func courierError(_ error: any Error) -> CourierError {
        switch error {
        case let error as CourierError:
            return error
        case is CancellationError:
            return CourierError(code: .cancelled, message: "the transfer was cancelled", underlying: error)
        default:
            return CourierError(code: .transportFailed, message: "the transfer failed: \(error)", underlying: error)
        }
    }
}
