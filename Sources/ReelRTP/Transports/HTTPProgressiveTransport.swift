import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ReelCore

/// The seed's HTTP progressive download: one GET whose body never ends, each RTP packet
/// behind a 4-byte big-endian length, across chunk boundaries as they fall.
final class HTTPProgressiveTransport: RTPTransport {
    let url: String
    private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)

    init(url: String) { self.url = url }

    func start(deliver: @escaping @Sendable (ReceivedDatagram) -> Void, closed: @escaping @Sendable (Error?) -> Void) async throws {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "video/rtp")
        let response = try await HTTPClient.shared.execute(request, deadline: .distantFuture)
        guard response.status == .ok else { throw RTPError("\(url) answered \(response.status.code) \(response.status.reasonPhrase)") }
        task.withLockedValue {
            $0 = Task {
                var framer = LengthPrefixedFramer(lengthSize: 4)
                do {
                    for try await chunk in response.body {
                        framer.append(chunk.readableBytesView)
                        while let packet = try framer.next() { deliver(ReceivedDatagram(bytes: packet, onControlPort: false)) }
                    }
                    closed(nil)
                } catch {
                    closed(Task.isCancelled ? nil : error)
                }
            }
        }
    }

    /// No way back to the server over a download.
    func sendControl(_ bytes: [UInt8]) {}

    func stop() async {
        let running = task.withLockedValue { task in
            defer { task = nil }
            return task
        }
        running?.cancel()
        await running?.value
    }
}
