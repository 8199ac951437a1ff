import Foundation
import ReelCore
import ReelFFmpeg
import ReelPlayer

/// The seed's HTTP progressive download: one GET whose body never ends, each RTP packet
/// behind a 4-byte big-endian length, across chunk boundaries as they fall. FFmpeg's HTTP
/// client fetches it (https, redirects and proxies included), on a thread of its own.
final class HTTPProgressiveTransport: RTPTransport {
    let url: String
    /// Seconds the connection and the response's head may take.
    static let openTimeout = 10.0
    private let reading = LockedValue<(stream: ProtocolByteStream, finished: DispatchSemaphore)?>(nil)

    init(url: String) { self.url = url }

    func start(deliver: @escaping @Sendable (ReceivedDatagram) -> Void, closed: @escaping @Sendable (Error?) -> Void) async throws {
        let url = url
        // Opening blocks until the server answers.
        let stream = try await BlockingThread.run(name: "reel.rtp.http.open") {
            try ProtocolByteStream(url: url, headers: [("Accept", "video/rtp")], timeout: Self.openTimeout)
        }
        let finished = DispatchSemaphore(value: 0)
        reading.withLock { $0 = (stream, finished) }
        BlockingThread.start(name: "reel.rtp.http") {
            defer { finished.signal() }
            var framer = LengthPrefixedFramer(lengthSize: 4)
            do {
                while let chunk = try stream.read() {
                    framer.append(chunk)
                    while let packet = try framer.next() { deliver(ReceivedDatagram(bytes: packet, onControlPort: false)) }
                }
                closed(nil)
            } catch {
                closed(error)
            }
        }
    }

    /// No way back to the server over a download.
    func sendControl(_ bytes: [UInt8]) {}

    func stop() async {
        guard let (stream, finished) = reading.withLock({ reading in
            defer { reading = nil }
            return reading
        }) else { return }
        stream.cancel()
        _ = try? await BlockingThread.run(name: "reel.rtp.http.stop") { finished.wait() }
    }
}
