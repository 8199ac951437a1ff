import ArgumentParser
import Foundation
import Reel
import ReelSDL

/// `reel play --talk`: talking to the camera played, through its ONVIF back-channel.
struct TalkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Talk to the rtsp:// camera played through its ONVIF audio back-channel: an audio file said once (WAV, MP3… any FFmpeg reads), or mic (the default recording device); t in the window stops and starts it.",
                               valueName: "file|mic"))
    var talk: String?

    @Option(name: .customLong("talk-transport"), help: "How the talk-back audio goes: udp or tcp (in the RTSP connection); UDP first by default, TCP when the camera refuses it.")
    var talkTransport: TalkBack.Transport?

    func check(inputs: [String]) throws {
        guard talk != nil else {
            if talkTransport != nil { throw ValidationError("--talk-transport goes with --talk") }
            return
        }
        guard inputs.count == 1, inputs[0].lowercased().hasPrefix("rtsp://") else {
            throw ValidationError("--talk talks to one rtsp:// camera (its ONVIF back-channel)")
        }
    }

    /// Starts talking to what `player` plays; nil without --talk.
    func start(on player: Player) throws -> TalkBack? {
        guard let talk else { return nil }
        let source: any TalkSource = talk == "mic" ? try SDLMicrophone() : try AudioFileTalkSource(path: talk)
        let session = try player.talk(source, transport: talkTransport)
        FileHandle.standardError.write(Data("reel: talking to the camera (\(session.codec.rawValue) over \(session.transport.rawValue.uppercased())); t stops and starts\n".utf8))
        return session
    }

    /// The closing line: what was said.
    static func report(_ session: TalkBack) {
        let sent = session.statistics
        var line = String(format: "reel: talk-back sent %.2f s in %d packets", sent.seconds, sent.packets)
        if let error = session.error { line += "; it stopped: \(error)" }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

extension TalkBack.Transport: ExpressibleByArgument {}
