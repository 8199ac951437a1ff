import Foundation

/// Files with subtitles, made with ffmpeg (and fontTools for a font no system has).
enum SubtitleFixtures {
    /// 6 s of 320×240 video at 25 fps (frames every 40 ms).
    static let frameRate = 25.0
    static let size = (width: 320, height: 240)

    /// The video with a SubRip file of the same name beside it (as mpv loads by default):
    /// two events, one of two lines, with italics.
    static func videoWithSubRip() throws -> (video: String, subtitles: String) {
        let video = try Fixtures.made("subtitled-6s.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=6",
            "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p"])
        let subtitles = (video as NSString).deletingPathExtension + ".srt"
        try write(subtitles, """
            1
            00:00:01,010 --> 00:00:02,490
            Hello, <i>world</i>!

            2
            00:00:03,010 --> 00:00:04,490
            A second event
            on two lines

            """)
        return (video, subtitles)
    }

    /// The video of ``videoWithSubRip()`` and a WebVTT file of another name: three cues,
    /// with bold, italics, an identifier, cue settings and a note (which none shows).
    static func videoWithWebVTT() throws -> (video: String, subtitles: String) {
        let (video, _) = try videoWithSubRip()
        let subtitles = (video as NSString).deletingLastPathComponent + "/cues.vtt"
        try write(subtitles, """
            WEBVTT

            NOTE made for Reel's tests

            greeting
            00:00:00.810 --> 00:00:02.290
            <b>Bold</b> and <i>italic</i>

            00:00:02.890 --> 00:00:04.090 align:start
            Two lines,
            one cue

            00:04.410 --> 00:05.290
            Short times & an ampersand

            """)
        return (video, subtitles)
    }

    /// The video of ``videoWithSubRip()`` in Matroska with two SubRip tracks, neither
    /// marked default: English (that file's events) first, then French (the same times,
    /// other words).
    static func matroskaWithTwoLanguages() throws -> String {
        let (video, english) = try videoWithSubRip()
        let french = (video as NSString).deletingLastPathComponent + "/french-events.srt"
        try write(french, """
            1
            00:00:01,010 --> 00:00:02,490
            Bonjour tout le monde !

            2
            00:00:03,010 --> 00:00:04,490
            Un second événement

            """)
        return try Fixtures.made("subtitled-6s-eng-fre.mkv", [
            "-i", video, "-i", english, "-i", french, "-map", "0:v", "-map", "1", "-map", "2", "-c:v", "copy", "-c:s", "srt",
            "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=fre", "-disposition:s:0", "0", "-disposition:s:1", "0"])
    }

    /// The styled ASS script of ``matroskaWithStyledASS()``: karaoke, a positioned sign,
    /// colours and italics, in a font called ReelTestFace.
    static let styledScript = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 320
        PlayResY: 240
        WrapStyle: 0
        ScaledBorderAndShadow: yes

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,ReelTestFace,26,&H0000FFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,2,1,2,10,10,12,1
        Style: Sign,ReelTestFace,18,&H00FFFFFF,&H000000FF,&H00FF0000,&H00000000,1,0,0,0,100,100,0,0,1,1,0,7,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:00.51,0:00:02.49,Default,,0,0,0,,{\\k40}Ka{\\k40}ra{\\k40}o{\\k40}ke
        Dialogue: 0,0:00:01.01,0:00:03.99,Sign,,0,0,0,,{\\pos(40,60)}Positioned sign
        Dialogue: 0,0:00:03.01,0:00:05.49,Default,,0,0,0,,{\\c&H00FF00&}Green {\\i1}italic{\\i0} line

        """

    /// Matroska with the styled ASS track (English, default) and its font attached: a copy
    /// of DejaVu Serif renamed ReelTestFace, which no system has, so the text shows in it
    /// only when the attachment is used.
    static func matroskaWithStyledASS() throws -> (video: String, script: String) {
        let script = Fixtures.directory.appendingPathComponent("styled.ass").path
        try write(script, styledScript)
        let font = try renamedFont()
        let video = try Fixtures.made("styled-ass-6s.mkv", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=6", "-i", script, "-attach", font,
            "-map", "0:v", "-map", "1:s", "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:s", "ass",
            "-metadata:s:t:0", "mimetype=application/x-truetype-font", "-metadata:s:s:0", "language=eng", "-disposition:s:0", "default"])
        return (video, script)
    }

    /// The SubRip fixture's video in Matroska with a PGS (Blu-ray picture) track, marked
    /// default: a striped white-on-half-black box at the bottom from 1.010 to 2.490 s, and
    /// a chequered translucent yellow one at the top left from 3.010 to 4.490 s.
    static func matroskaWithPGS() throws -> String {
        let (video, _) = try videoWithSubRip()
        let sup = try CachedFile.at(Fixtures.directory.appendingPathComponent("boxes.sup").path) { partial in
            let made = try Processes.run("/usr/bin/python3", ["-c", pgsWriter, partial])
            guard made.status == 0 else { throw TestSetupError("PGS writer: \(made.stderr)") }
        }
        // -copyts: by default ffmpeg moves each input to start at 0, the .sup's first picture too.
        return try Fixtures.made("pgs-boxes-6s.mkv", ["-copyts", "-i", video, "-i", sup, "-map", "0:v", "-map", "1:s", "-c", "copy",
                                                       "-metadata:s:s:0", "language=eng", "-disposition:s:0", "default"])
    }

    /// ``matroskaWithPGS()``'s pictures re-encoded by ffmpeg's `encoder` (`dvbsub` for DVB,
    /// `dvdsub` for VobSub) at the same times: PGS gives a picture no end, so
    /// `-fix_sub_duration` ends each where the next (empty) one starts.
    static func matroskaWithPictures(encoder: String) throws -> String {
        let pgs = try matroskaWithPGS()
        return try Fixtures.made("\(encoder)-boxes-6s.mkv", ["-copyts", "-fix_sub_duration", "-i", pgs, "-map", "0", "-c:v", "copy", "-c:s", encoder,
                                                            "-metadata:s:s:0", "language=eng", "-disposition:s:0", "default"])
    }

    /// Writes a PGS (`.sup`) file: display sets of presentation, window, palette, object
    /// (run-length coded) and end segments, and empty presentations that clear.
    static let pgsWriter = """
        import struct, sys
        def segment(kind, seconds, payload):
            return b'PG' + struct.pack('>IIBH', round(seconds * 90000), 0, kind, len(payload)) + payload
        def runs(rows):
            out = bytearray()
            for row in rows:
                x = 0
                while x < len(row):
                    color, n = row[x], 1
                    while x + n < len(row) and row[x + n] == color and n < 16383: n += 1
                    if color == 0:
                        out += bytes([0, n]) if n < 64 else bytes([0, 0x40 | (n >> 8), n & 0xFF])
                    elif n < 3:
                        out += bytes([color]) * n
                    else:
                        out += bytes([0, 0x80 | n, color]) if n < 64 else bytes([0, 0xC0 | (n >> 8), n & 0xFF, color])
                    x += n
                out += bytes([0, 0])
            return bytes(out)
        def show(number, seconds, x, y, rows, palette):
            width, height = len(rows[0]), len(rows)
            data = runs(rows)
            pcs = struct.pack('>HHBHBBBB', 320, 240, 0x10, number, 0x80, 0, 0, 1) + struct.pack('>HBBHH', 0, 0, 0, x, y)
            wds = struct.pack('>BBHHHH', 1, 0, x, y, width, height)
            pds = struct.pack('>BB', 0, 0) + b''.join(struct.pack('>BBBBB', *entry) for entry in palette)
            ods = struct.pack('>HBB', 0, 0, 0xC0) + (len(data) + 4).to_bytes(3, 'big') + struct.pack('>HH', width, height) + data
            return b''.join(segment(kind, seconds, payload) for kind, payload in [(0x16, pcs), (0x17, wds), (0x14, pds), (0x15, ods), (0x80, b'')])
        def clear(number, seconds, x, y, width, height):
            pcs = struct.pack('>HHBHBBBB', 320, 240, 0x10, number, 0x00, 0, 0, 0)
            wds = struct.pack('>BBHHHH', 1, 0, x, y, width, height)
            return b''.join(segment(kind, seconds, payload) for kind, payload in [(0x16, pcs), (0x17, wds), (0x80, b'')])
        # Index: Y, Cr, Cb, alpha. 1 white, 2 half-transparent black, 3 translucent yellow.
        palette = [(0, 16, 128, 128, 0), (1, 235, 128, 128, 255), (2, 16, 128, 128, 128), (3, 210, 146, 16, 200)]
        stripes = [[0 if x < 2 or x >= 118 else 1 if 3 < x < 116 and 3 < y < 26 and (x // 4 + y // 5) % 2 == 0 else 2
                    for x in range(120)] for y in range(30)]
        chequer = [[3 if (x // 10 + y // 10) % 2 == 0 else 0 for x in range(60)] for y in range(40)]
        with open(sys.argv[1], 'wb') as out:
            out.write(show(1, 1.010, 100, 190, stripes, palette))
            out.write(clear(2, 2.490, 100, 190, 120, 30))
            out.write(show(3, 3.010, 20, 20, chequer, palette))
            out.write(clear(4, 4.490, 20, 20, 60, 40))
        """

    /// DejaVu Serif under the family name ReelTestFace.
    static func renamedFont() throws -> String {
        let program = """
            import sys
            from fontTools.ttLib import TTFont
            font = TTFont(sys.argv[1])
            for record in font['name'].names:
                if record.nameID in (1, 4, 16): record.string = 'ReelTestFace'
                elif record.nameID == 6: record.string = 'ReelTestFace-Regular'
            font.save(sys.argv[2])
            """
        return try CachedFile.at(Fixtures.directory.appendingPathComponent("ReelTestFace.ttf").path) { partial in
            // Debian's own Python, where apt put python3-fonttools.
            let made = try Processes.run("/usr/bin/python3", ["-c", program, "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", partial])
            guard made.status == 0 else { throw TestSetupError("fontTools: \(made.stderr)") }
        }
    }

    private static func write(_ path: String, _ text: String) throws {
        if (try? String(contentsOfFile: path, encoding: .utf8)) == text { return }
        try CachedFile.replace(path) { partial in try text.write(toFile: partial, atomically: false, encoding: .utf8) }
    }
}
