// A live camera encoded in real time and sent as RTP, as an app streams its camera: the
// camera delivers frames on its own thread, the session never blocks it (a late encoder
// drops frames), and each encoded sample goes out as it comes.
//   example-camera-rtp rtp://127.0.0.1:5004 stream.sdp SECONDS
// The camera is Reel's synthetic one (a moving test picture with a frame counter).
import Foundation
import ReelEncoding

let arguments = CommandLine.arguments
guard arguments.count == 4, let seconds = Int(arguments[3]), seconds > 0 else {
    FileHandle.standardError.write(Data("usage: example-camera-rtp rtp://HOST:PORT stream.sdp SECONDS\n".utf8))
    exit(2)
}
let (width, height, frameRate) = (640, 360, Rational(25, 1))
do {
    var properties = EncoderProperties()
    properties.realTime = true
    properties.profile = .baseline
    properties.averageBitRate = 1_000_000
    properties.expectedFrameRate = frameRate
    properties.maxKeyFrameInterval = 25  // a receiver that joins late waits a second at most
    let session = try EncoderSession(codec: .h264, width: width, height: height, properties: properties)
    try session.prepare()
    guard let format = session.formatDescription else { throw EncoderError(.invalidState, "the session has no format") }
    // A BYE at the end tells receivers the stream is over (ffmpeg then ends at once).
    let sender = try RTPSender(url: arguments[1], format: format, pacesInRealTime: false, sendsGoodbye: true)
    try sender.writeSessionDescription(to: arguments[2])

    let sending = Task {
        for await sample in session.samples { try sender.write(sample) }
        sender.finish()
        return (sender.packetsSent, sender.bytesSent)
    }
    // The capture thread: frames in as the camera makes them.
    let dropped: Int = try await withCheckedThrowingContinuation { done in
        Thread {
            do {
                let camera = try SyntheticCamera(width: width, height: height, frameRate: frameRate, frames: seconds * 25, realTime: true)
                var dropped = 0
                while let (frame, time) = try camera.nextFrame() {
                    if try !session.encode(frame, presentationTime: time) { dropped += 1 }
                }
                session.complete { [dropped] error in
                    if let error { done.resume(throwing: error) } else { done.resume(returning: dropped) }
                }
            } catch {
                done.resume(throwing: error)
            }
        }.start()
    }
    session.invalidate()
    let (packets, bytes) = try await sending.value
    print("sent \(session.statistics.samplesOut) frames (\(dropped) dropped) in \(packets) RTP packets, \(bytes) bytes; SDP in \(arguments[2])")
} catch {
    FileHandle.standardError.write(Data("example-camera-rtp: \(error)\n".utf8))
    exit(1)
}
