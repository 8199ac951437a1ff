// A consumer of the frames a player presents, as a video-analysis app hooks into playback:
// each frame's luma histogram (16 bins of 16 levels) and mean, one line per frame.
//   example-luma-histogram FILE_OR_URL
// Output: "SECONDS MEAN B0 … B15" for each presented frame. Playback runs untimed (as fast
// as it decodes); a consumer too slow for it loses frames, counted at the end, rather than
// holding playback up.
import Foundation
import ReelPlayer

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: example-luma-histogram FILE_OR_URL\n".utf8))
    exit(2)
}
var configuration = Player.Configuration()
configuration.untimed = true
let player = Player.headless(configuration: configuration)
let subscription = player.frameTap.subscribe(format: .i420, bufferLimit: 32)
let consumer = Task {
    for await sample in subscription.samples {
        let luma = sample.pixelBuffer.planes[0]
        var bins = [Int](repeating: 0, count: 16), total = 0
        for row in 0..<luma.rowCount {
            for value in UnsafeBufferPointer(start: luma.row(row), count: luma.rowByteCount) {
                bins[Int(value >> 4)] += 1
                total += Int(value)
            }
        }
        let mean = Double(total) / Double(max(luma.rowCount * luma.rowByteCount, 1))
        print(String(format: "%.6f %.3f ", sample.presentationTime.seconds, mean) + bins.map(String.init).joined(separator: " "))
    }
}
do {
    try await player.open(CommandLine.arguments[1])
    player.play()
    events: for await event in player.events {
        switch event {
        case .endOfStream: break events
        case .error(let error): throw error
        default: continue
        }
    }
} catch {
    FileHandle.standardError.write(Data("example-luma-histogram: \(error)\n".utf8))
    exit(1)
}
subscription.waitUntilIdle()
subscription.cancel()
await consumer.value
player.stop()
FileHandle.standardError.write(Data("\(subscription.deliveredFrames) frames, \(subscription.droppedFrames) lost by this consumer\n".utf8))
