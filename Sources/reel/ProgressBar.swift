import Foundation

/// A progress bar on standard error, redrawn in place.
final class ProgressBar: @unchecked Sendable {
    private var last = -1
    private let isTerminal = isatty(STDERR_FILENO) != 0

    func show(_ fraction: Double) {
        let percent = Int((fraction * 100).rounded(.down))
        guard percent != last else { return }
        last = percent
        let filled = percent * 30 / 100
        let line = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] \(percent) %"
        FileHandle.standardError.write(Data((isTerminal ? "\r" + line : line + "\n").utf8))
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
