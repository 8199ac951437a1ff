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
            // ffmpeg decodes 75 pictures from the file sent, a keyframe every 25.
            let expected = try RTPStreams.frameHashes(sent).count
            let (counted, counting) = AsyncStream<Int>.makeStream()
            let consumer = Task {
                var count = 0, keyframes = 0, bytes = 0
                for await unit in units {
                    count += 1
                    counting.yield(count)
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
            // The receiver has them all once its jitter buffer lets the last one go: waited for as
            // the consumer counts it, within a bound a loaded machine keeps.
            let allIn = Task { for await count in counted where count >= expected { return true }; return false }
            let bound = Task { try await Task.sleep(for: .seconds(30)); allIn.cancel() }
            #expect(await allIn.value, "not all \(expected) access units within 30 s")
            bound.cancel()
            let statistics = await receiver.stop()
            let (count, keyframes, bytes) = await consumer.value
            #expect(count == expected && keyframes == 3 && bytes > 0, "\(count) access units, \(keyframes) keyframes")
            #expect(statistics.accessUnits == count && statistics.packets.lost == 0)
            await receiver.waitUntilFinished()
        }

        /// Cancelling the task that iterates `accessUnits()` stops the receiver, and a
        /// cancelled `waitUntilFinished()` returns while the receiver goes on.
        @Test func cancellingTheConsumerStopsTheReceiver() async throws {
            let port = try RTPStreams.freePortPair()
            let sdp = "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=video \(port) RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n"
            let receiver = try RTPReceiver(configuration: .init(description: try SessionDescription(parsing: sdp)))
            let units = try await receiver.accessUnits()
            let waiter = Task { () -> Bool in
                await receiver.waitUntilFinished()
                return Task.isCancelled
            }
            waiter.cancel()
            #expect(await waiter.value, "the cancelled waiter returned")
            #expect(!receiver.isFinished, "the receiver goes on without its waiter")
            // Cancelled before or while it waits for a unit, the iteration ends as cancelled.
            let consumer = Task { for await _ in units {} }
            consumer.cancel()
            await consumer.value
            let deadline = Date().addingTimeInterval(10)
            while !receiver.isFinished && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(receiver.isFinished, "the receiver stopped with its consumer")
            await receiver.stop()
        }
    }
}
