import Foundation
import Reel
import Testing

extension PlaybackTests {
    /// `RTPReceiver` used in-process, as a Swift program would: its access units as an
    /// `AsyncStream` that ends when the receiver stops.
    @Suite(.serialized) struct ReceiverAPITests {
        @Test func accessUnitsComeAsAnAsyncSequenceThatEnds() async throws {
            let directory = try Paths.temporaryDirectory()
            let sent = try RTPStreams.sent("zerolatency")
            let port = try RTPStreams.freePortPair()
            let sdp = try RTPStreams.writeSDP(for: sent, to: "rtp://127.0.0.1:\(port)", in: directory)
            let receiver = try RTPReceiver(configuration: .init(description: try SessionDescription(parsing: String(contentsOfFile: sdp, encoding: .utf8))))
            let units = try await receiver.accessUnits()
            let consumer = Task {
                var count = 0, keyframes = 0, bytes = 0
                for await unit in units {
                    count += 1
                    if unit.isKeyframe { keyframes += 1 }
                    bytes += unit.annexB.count
                }
                return (count, keyframes, bytes)
            }
            // The sender blocks a thread of its own, not one of the concurrency pool's.
            let status: Int32 = await withCheckedContinuation { continuation in
                Thread {
                    let result = try? Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy", "-f", "rtp", "rtp://127.0.0.1:\(port)"])
                    continuation.resume(returning: result?.status ?? -1)
                }.start()
            }
            #expect(status == 0)
            try await Task.sleep(for: .milliseconds(300))
            let statistics = await receiver.stop()
            let (count, keyframes, bytes) = await consumer.value
            // ffmpeg decodes 75 pictures from the file sent, a keyframe every 25.
            let expected = try RTPStreams.frameHashes(sent).count
            #expect(count == expected && keyframes == 3 && bytes > 0, "\(count) access units, \(keyframes) keyframes")
            #expect(statistics.accessUnits == count && statistics.packets.lost == 0)
            await receiver.waitUntilEnded()
        }
    }
}
