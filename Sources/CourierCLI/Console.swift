import Foundation

/// Output that must reach a pipe or file at once.
enum Console {
    /// Writes one line to standard output unbuffered: `serve`'s first line is read by other
    /// tools while the process keeps running, so it cannot wait in a stdio buffer.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes one line to standard error: a remark beside a command's output, not part of it.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
