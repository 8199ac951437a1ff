import ReelCore
import ReelFFmpeg
import ReelGStreamer
import ReelPlayer

/// A WHIP destination (RFC 9725): the encoder's H.264, and the input's sound as Opus, sent
/// to a WebRTC server through GStreamer's `webrtcbin`, signalled over HTTP as WHEP is. The
/// server's keyframe requests (PLI, FIR) reach the encoder through ``takeKeyframeRequest()``.
final class WHIPSink: EncodedSampleSink {
    private let sender: GStreamerWebRTCSender
    private let sound: SoundForWebRTC?

    /// Connects to the WHIP endpoint `url` (`whip+http://…`, or an `http(s)` URL whose path
    /// ends in `/whip`), with a bearer `token` when given; with the sound of stream `audio`
    /// of its demuxer when given. Waits up to `timeout` seconds.
    init(url: String, token: String?, format: VideoFormatDescription, frameRate: Rational, audio: (demuxer: Demuxer, index: Int)?, timeout: Double = 15) throws {
        guard let endpoint = WebRTCEndpoint(url), endpoint.role == .publish else {
            throw OutputError(url, "not a WHIP endpoint (whip+http://…, or a URL whose path ends in /whip)")
        }
        sound = try audio.map { try SoundForWebRTC(decoding: $0.index, of: $0.demuxer) }
        let signalling = WebRTCHTTPSignalling(endpoint: endpoint, given: url, token: token, timeout: timeout)
        do {
            sender = try GStreamerWebRTCSender(signalling: signalling, format: format, frameRate: frameRate, withAudio: sound != nil, timeout: timeout)
        } catch let error as GStreamerError {
            throw OutputError(url, error.description)
        }
    }

    func write(_ sample: EncodedSample) throws {
        do { try sender.send(sample) } catch { throw OutputError("WHIP", error.description) }
    }

    func write(audio packet: Packet) throws {
        guard let sound else { return }
        do {
            try sound.decode(packet) { samples, frames, time in try sender.send(audio: samples, frames: frames, at: time) }
        } catch let error as GStreamerError {
            throw OutputError("WHIP", error.description)
        }
    }

    func finish() throws { sender.finish() }
    func takeKeyframeRequest() -> Bool { sender.takeKeyframeRequest() }
}

/// An input's sound as `webrtcbin`'s Opus branch takes it: decoded by FFmpeg and converted
/// to interleaved float stereo at 48 kHz, timed from its first decoded frame on.
final class SoundForWebRTC {
    private let decoder: Decoder
    private let converter: AudioConverter
    /// The media time of the next converted sample (seconds), once the first frame came.
    private var next: Double?

    init(decoding index: Int, of demuxer: Demuxer) throws {
        decoder = try Decoder(demuxer: demuxer, streamIndex: index)
        let format = GStreamerWebRTCSender.audioFormat
        converter = AudioConverter(device: AudioDeviceFormat(sampleRate: format.sampleRate, channels: format.channels))
    }

    /// Decodes `packet` and hands over the converted samples: the bytes, their frame count
    /// and the media time they begin at.
    func decode(_ packet: Packet, _ body: (UnsafeRawBufferPointer, Int, Double) throws -> Void) throws {
        try decoder.decode(packet) { frame in
            guard case .audio(let audio) = frame else { return }
            if next == nil { next = audio.presentationTime?.seconds }
            try converter.push(audio)
        }
        guard var time = next else { return }
        var failure: Error?
        converter.pull { samples, frames in
            guard failure == nil else { return }
            do { try body(samples, frames, time) } catch { failure = error }
            time += Double(frames) / Double(GStreamerWebRTCSender.audioFormat.sampleRate)
        }
        next = time
        if let failure { throw failure }
    }
}
