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

    /// DejaVu Serif under the family name ReelTestFace.
    static func renamedFont() throws -> String {
        let path = Fixtures.directory.appendingPathComponent("ReelTestFace.ttf").path
        guard !FileManager.default.fileExists(atPath: path) else { return path }
        let program = """
            import sys
            from fontTools.ttLib import TTFont
            font = TTFont(sys.argv[1])
            for record in font['name'].names:
                if record.nameID in (1, 4, 16): record.string = 'ReelTestFace'
                elif record.nameID == 6: record.string = 'ReelTestFace-Regular'
            font.save(sys.argv[2])
            """
        let partial = path + ".\(UUID().uuidString).ttf"
        // Debian's own Python, where apt put python3-fonttools.
        let made = try Processes.run("/usr/bin/python3", ["-c", program, "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", partial])
        guard made.status == 0 else { throw TestSetupError("fontTools: \(made.stderr)") }
        try? FileManager.default.moveItem(atPath: partial, toPath: path)
        return path
    }

    private static func write(_ path: String, _ text: String) throws {
        if (try? String(contentsOfFile: path, encoding: .utf8)) == text { return }
        let partial = path + ".\(UUID().uuidString)"
        try text.write(toFile: partial, atomically: false, encoding: .utf8)
        guard rename(partial, path) == 0 else { throw TestSetupError("cannot write \(path)") }
    }
}
