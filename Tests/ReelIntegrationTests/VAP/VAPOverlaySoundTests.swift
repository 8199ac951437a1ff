import Foundation
import Reel
import Testing

/// A gift's sound over a playing video (`reel play --overlay`, `--audio-out`), judged by
/// ffmpeg: where its tone is heard (`silencedetect`), at which pitch (`aspectralstats`), and
/// that it meets the gift's own pictures.
@Suite struct VAPOverlaySoundTests {
    /// A 2 s gift packed by `reel vap pack`: 160×120, transparent but for frames 25 to 29
    /// (1.0–1.2 s), opaque white; its sound a 1 kHz tone over those same 0.2 s.
    static func flashingGift(in directory: URL) throws -> String {
        let frames = directory.appendingPathComponent("%04d.png").path
        let drawn = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                                 "color=c=white:s=160x120:r=25:d=2,format=rgba,geq=r=255:g=255:b=255:a='if(between(N,25,29),255,0)'",
                                                 "-start_number", "1", frames])
        guard drawn.status == 0 else { throw TestSetupError("ffmpeg: \(drawn.stderr)") }
        let tone = directory.appendingPathComponent("tone.m4a").path
        let sounded = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                                   "aevalsrc=exprs='if(between(t,1,1.2),0.5*sin(2*PI*1000*t),0)':s=48000:d=2", "-c:a", "aac", tone])
        guard sounded.status == 0 else { throw TestSetupError("ffmpeg: \(sounded.stderr)") }
        let gift = directory.appendingPathComponent("gift.mp4").path
        let packed = try reel("vap", "pack", frames, "-o", gift, "--audio", tone, "--fps", "25")
        guard packed.status == 0 else { throw TestSetupError("reel vap pack: \(packed.stderr)") }
        return gift
    }

    /// Where `path` is not silent (below -30 dBFS for 50 ms) and silent again before its
    /// end, by ffmpeg's `silencedetect`.
    static func soundSpans(_ path: String) throws -> [(start: Double, end: Double)] {
        let detected = try Processes.run("ffmpeg", ["-nostdin", "-i", path, "-af", "silencedetect=n=-30dB:d=0.05", "-f", "null", "-"])
        guard detected.status == 0 else { throw TestSetupError("ffmpeg: \(detected.stderr)") }
        func times(_ key: String) -> [Double] {
            detected.stderr.split(separator: "\n").compactMap { line in
                line.range(of: key + ": ").flatMap { Double(line[$0.upperBound...].prefix { !$0.isWhitespace }) }
            }
        }
        let (ends, starts) = (times("silence_end"), times("silence_start"))
        // A sound runs from a silence's end to the next silence's start; the silence that
        // ends the file is told as ending there too, with no sound after it.
        return ends.compactMap { end in starts.first { $0 > end }.map { (end, $0) } }
    }

    /// The median spectral centroid of `path` from `start` to `end`, by ffmpeg's `aspectralstats`.
    static func centroid(_ path: String, from start: Double, to end: Double, in directory: URL) throws -> Double {
        let metadata = directory.appendingPathComponent("centroid.txt").path
        let measured = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-af",
                                                    "atrim=start=\(start):end=\(end),aspectralstats,ametadata=mode=print:file=\(metadata)",
                                                    "-f", "null", "-"])
        guard measured.status == 0 else { throw TestSetupError("ffmpeg: \(measured.stderr)") }
        let values = try String(contentsOfFile: metadata, encoding: .utf8).split(separator: "\n")
            .compactMap { line in line.hasPrefix("lavfi.aspectralstats.1.centroid=") ? Double(line.split(separator: "=")[1]) : nil }.sorted()
        guard !values.isEmpty else { throw TestSetupError("aspectralstats measured nothing in \(start)–\(end) s") }
        return values[values.count / 2]
    }

    /// The gift from 1 s over a clip whose own sound is a 400 Hz beep at 1.0–1.2 s: the
    /// sound played has the clip's beep, then the gift's tone 1 s after it (its 1.0 s, at
    /// the input's 2.0 s) at 1 kHz, and the tapped pictures show the gift's white frames
    /// from the input's 2.0 s: tone and pictures within 40 ms.
    @Test(.timeLimit(.minutes(3))) func aGiftsToneIsMixedInAndMeetsItsPictures() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let gift = try Self.flashingGift(in: directory)
        let clip = try Fixtures.made("overlay-base-320x240-beep-0.2s-4s.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=4",
            "-f", "lavfi", "-i", "aevalsrc=exprs='if(between(t,1,1.2),0.5*sin(2*PI*400*t),0)':s=48000:c=stereo:d=4",
            "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        let tap = directory.appendingPathComponent("tap.y4m").path, sound = directory.appendingPathComponent("sound.wav").path
        let played = try reel("play", "--headless", "--untimed", "--audio-out", sound, "--tap", "y4m:\(tap)",
                              "--overlay", "\(gift)@1.0,pos=0:0:160:120", clip, timeout: 120)
        #expect(played.status == 0, "\(played.stderr)")

        let spans = try Self.soundSpans(sound)
        try #require(spans.count == 2, "two sounds, the clip's beep and the gift's tone: \(spans)")
        let (beep, tone) = (spans[0], spans[1])
        let toneAt = 1.0 + tone.start - beep.start
        let pitch = try Self.centroid(sound, from: tone.start + 0.05, to: tone.end - 0.05, in: directory)
        let beepPitch = try Self.centroid(sound, from: beep.start + 0.05, to: beep.end - 0.05, in: directory)

        let pictures = try VAPOverlayTests.rawFrames(tap, width: 320, height: 240, in: directory, name: "tap")
        let white = pictures.indices.filter { index in
            let luma = (0..<120).reduce(0) { sum, row in sum + pictures[index][(row * 320)..<(row * 320 + 160)].reduce(0) { $0 + Int($1) } }
            return luma / (160 * 120) > 230
        }
        let flashAt = Double(white.first ?? -1) / 25
        print(String(format: "a gift's sound: tone at %.3f s of the input (%.0f Hz; the clip's beep %.0f Hz), its white pictures %@ at %.2f s: tone minus picture %+.0f ms",
                     toneAt, pitch, beepPitch, "\(white)", flashAt, (toneAt - flashAt) * 1000))
        #expect(white == Array(50...54), "the gift's white frames are its 25–29, from the input's 2.0 s")
        #expect(abs(toneAt - flashAt) <= 0.04 && abs(toneAt - 2.0) <= 0.04, "tone at \(toneAt) s, pictures at \(flashAt) s")
        #expect(abs(tone.end - tone.start - 0.2) <= 0.04, "the tone lasts its 0.2 s: \(tone)")
        #expect(abs(pitch - 1000) <= 50 && abs(beepPitch - 400) <= 50, "tone \(pitch) Hz, beep \(beepPitch) Hz")
    }
}
