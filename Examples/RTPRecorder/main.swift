// Records an IP camera's RTP stream (H.264 or H.265, described by its SDP) into an MP4,
// without decoding: access units as they were sent, with their times.
//   example-rtp-recorder camera.sdp out.mp4 [IDLE_SECONDS]
// It stops when nothing has arrived for IDLE_SECONDS (default 2) after the first packet.
import Foundation
import ReelRTP

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: example-rtp-recorder camera.sdp out.mp4 [IDLE_SECONDS]\n".utf8))
    exit(2)
}
let idleLimit = arguments.count > 3 ? Double(arguments[3]) ?? 2 : 2
do {
    let description = try SessionDescription(parsing: String(contentsOfFile: arguments[1], encoding: .utf8))
    let recorder = try AccessUnitRecorder(path: arguments[2], codec: description.codec, clockRate: description.clockRate)
    let receiver = try RTPReceiver(configuration: RTPReceiver.Configuration(description: description))
    let units = try await receiver.accessUnits()

    // Stops the receiver once the stream has gone quiet; the sequence below then ends.
    let watchdog = Task {
        var lastBytes = 0, quietSince = Date()
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(250))
            let bytes = receiver.statistics.bytesReceived
            if bytes != lastBytes { (lastBytes, quietSince) = (bytes, Date()) }
            if bytes > 0, Date().timeIntervalSince(quietSince) >= idleLimit { break }
        }
        return await receiver.stop()
    }
    for await unit in units { try recorder.write(unit) }
    try recorder.finish()
    let statistics = try await watchdog.value
    print("recorded \(recorder.writtenUnits) access units (\(statistics.packets.received) packets, \(statistics.packets.lost) lost) to \(arguments[2])")
} catch {
    FileHandle.standardError.write(Data("example-rtp-recorder: \(error)\n".utf8))
    exit(1)
}
