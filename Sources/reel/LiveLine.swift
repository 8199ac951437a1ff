import Foundation

/// A status line rewritten in place on stderr twice a second (`--stats`).
final class LiveLine: @unchecked Sendable {
    private let text: @Sendable () -> String
    private var timer: DispatchSourceTimer?

    init(_ text: @escaping @Sendable () -> String) { self.text = text }

    func start() {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
        timer.setEventHandler { [text] in FileHandle.standardError.write(Data(("\r" + text()).utf8)) }
        timer.resume()
        self.timer = timer
    }

    func stop() {
        timer?.cancel()
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
