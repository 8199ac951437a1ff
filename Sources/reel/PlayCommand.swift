import ArgumentParser
import Foundation
import Reel

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a file or stream in a window, or headless.",
        discussion: """
            Several inputs, or --playlist, play one after another in one window, as mpv's playlist; \
            --loop-file and --loop-playlist repeat them (a bare --loop-file or --loop-playlist is inf).

            Keys in the window: \(WindowKeys.summary). A click on the bar at the bottom seeks. In a 360° video: drag to look, \
            arrows or WASD pan, the wheel or +/- zoom (30°–120°), r resets the view, v toggles VR.

            Ctrl-C (SIGINT) or SIGTERM end playback as q does: the --stats report is printed, \
            snapshots and taps are finished, and the exit status is 0 (1 when playback failed).
            """)

    @Argument(help: "Files, or any URLs FFmpeg reads; several play one after another.")
    var inputs: [String] = []

    @Option(help: ArgumentHelp("Play the inputs a playlist file lists (M3U, M3U8, PLS, or one per line), after any given; an HLS playlist plays as one stream.",
                               valueName: "file"))
    var playlist: String?

    @Option(name: .customLong("loop-file"), help: ArgumentHelp("Play each input N more times before the next (inf: for ever), as mpv's --loop-file.", valueName: "N|inf|no"))
    var loopFile: String = "no"

    @Option(name: .customLong("loop-playlist"), help: ArgumentHelp("Play the whole list N times (1 once; inf: for ever, and < > wrap around), as mpv's --loop-playlist.",
                                                                  valueName: "N|inf|no"))
    var loopPlaylist: String = "1"

    @Flag(help: "No window and no sound card: frames are consumed by a headless sink, audio by a virtual device clock.")
    var headless = false

    @Flag(help: "Open paused on the first frame (at --start); space plays.")
    var pause = false

    @Flag(help: "Present every frame as soon as it is decoded, with no sync (benchmarks).")
    var untimed = false

    @Option(help: "Start at this many seconds (of the first input).")
    var start: Double?

    @Option(help: "Start at the beginning of chapter N (1 is the first) of the first input; Page Up and Page Down move between chapters.")
    var chapter: Int?

    @Option(help: "Stop after playing this many seconds (of the first input).")
    var duration: Double?

    @Option(help: "Stop after showing this many video frames (as mpv's --frames): a live stream's count starts at its first picture, however late that comes.")
    var frames: Int?

    @Option(help: "Volume, 0 to 100.")
    var volume: Double?

    @Option(help: "Speed, 0.5 to 2; audio keeps its pitch.")
    var rate: Double = 1

    @Option(help: ArgumentHelp("The audio track: its number among the audio tracks (from 1, as mpv's --aid), auto, or no; # cycles them in the window.",
                               valueName: "N|auto|no"))
    var aid: String = "auto"

    @Option(help: ArgumentHelp("Audio languages to prefer, in order (eng,fre; a two-letter code matches the three-letter one), as mpv's --alang.",
                               valueName: "list"))
    var alang: String?

    @Flag(help: "Start with the sound off; m turns it on.")
    var mute = false

    @Flag(name: .customLong("no-audio"), help: "Play no audio: no sound device is opened and video keeps its own time.")
    var noAudio = false

    @Flag(name: .customLong("no-video"), help: "Play no video: no window is opened, audio alone plays.")
    var noVideo = false

    @Option(help: "Where the s key writes screenshots (reel-shot0001.png, the first free number).")
    var screenshotDir: String = "."

    @Option(name: .customLong("ab-loop-a"), help: "Loop from this many seconds (with --ab-loop-b); l sets the points in the window.")
    var abLoopA: Double?

    @Option(name: .customLong("ab-loop-b"), help: "Loop back to --ab-loop-a on reaching this many seconds.")
    var abLoopB: Double?

    @Option(name: .customLong("ab-loop-count"), help: ArgumentHelp("Go back to A this many times, then play on past B (as mpv's); inf loops for ever.",
                                                                   valueName: "N|inf"))
    var abLoopCount: String = "inf"

    /// --ab-loop-count as the loop takes it: nil for ever.
    private var abLoopTimes: Int? { Int(abLoopCount) }

    @Option(help: "Write the frame on screen at T seconds to a PNG file: T:FILE. May be repeated.")
    var snapshot: [String] = []

    @Flag(help: "Print a live status line on stderr and a JSON report at the end.")
    var stats = false

    @Option(help: "The master clock: audio, video or external.")
    var clock: ClockMaster = .audio

    @Option(help: ArgumentHelp("The tallest variant of an adaptive stream (an HLS master playlist) to switch to, in rows.", valueName: "rows"))
    var maxHeight: Int?

    @Option(name: .customLong("demuxer-readahead-secs"), help: ArgumentHelp("Read at most this many seconds of media ahead of decoding, per stream (16 MiB at most); an adaptive stream's segments are downloaded as far ahead through GStreamer. As mpv's --demuxer-readahead-secs.",
                                                                        valueName: "seconds"))
    var readAhead: Double = Player.Configuration().packetQueueSeconds

    @Option(help: "Decoding threads; 0 chooses one per core.")
    var threads: Int = 0

    @Option(help: ArgumentHelp("The engine that decodes: auto (Reel's rules: an HLS master playlist with several variants or a DASH manifest to GStreamer, the rest to FFmpeg; either hands what it cannot open to the other), ffmpeg, or gstreamer.",
                               valueName: "auto|ffmpeg|gstreamer"))
    var engine: EngineOption = .auto

    @Option(help: ArgumentHelp("Hand every presented frame to another program or to files: y4m:PATH (a file, or a FIFO that mpv, ffplay or ffmpeg reads) or png:DIR. May be repeated.", valueName: "kind:path"))
    var tap: [String] = []

    @Option(help: "With --tap png:DIR, write every Nth presented frame.")
    var tapEvery: Int = 1

    @Option(help: ArgumentHelp(
        "Turn the video: auto (upright as the file's display matrix says), no (as decoded), N (exactly N degrees clockwise), +N (N more than the file says).",
        discussion: "N is a multiple of 90. Taps hand over frames as decoded unless --tap-rotate.", valueName: "auto|no|N|+N"))
    var rotate = RotateOption(.automatic())

    @Flag(help: "Hand taps the turned frames the window shows, not the decoded ones.")
    var tapRotate = false

    @Option(help: ArgumentHelp("How HDR video (HDR10's PQ, HLG) is mapped for an SDR display: hable, mobius, reinhard, clip (the tone curve), or off.",
                               valueName: "curve|off"))
    var toneMapping = ToneMappingOption(.hable)

    @Option(help: "Deinterlace with bwdif: auto (pictures the decoder flags as interlaced), yes (every picture) or no.")
    var deinterlace = DeinterlaceSetting.auto

    @Option(name: .customLong("deinterlace-mode"), help: "A picture per field (twice the frame rate) or per frame.")
    var deinterlaceMode = DeinterlaceMode.field

    @Option(help: "Bring the sound to -16 LUFS (EBU R128) as it plays: auto (live inputs), on or off.")
    var normalize = LoudnessNormalization.auto

    @Option(name: .customLong("af"), help: ArgumentHelp("libavfilter's audio filters, as ffmpeg's -af takes them (equalizer, acompressor…).", valueName: "filters"))
    var audioFilters: String?

    @Option(name: .customLong("volume-gain"), help: ArgumentHelp("Decibels added on top of the volume (6 doubles the amplitude).", valueName: "dB"))
    var volumeGain: Double = 0

    @OptionGroup(title: "Network input") var network: NetworkInputOptions

    @OptionGroup(title: "Live") var liveOptions: LiveOptions

    @OptionGroup(title: "Recording") var recording: CameraRecordingOptions

    @OptionGroup(title: "Talk-back") var talkBack: TalkOptions

    @Option(name: .customLong("audio-out"), help: ArgumentHelp("Write the sound played to a WAV file (32-bit float, 48 kHz stereo) instead of a sound card, as mpv's --ao=pcm: rate changes and volume included, pauses left out.",
                                                              valueName: "file.wav"))
    var audioOut: String?

    @OptionGroup(title: "Subtitles") var subtitles: SubtitleOptions

    @OptionGroup(title: "Window") var window: WindowOptions

    @Flag(help: "Start in picture-in-picture: a small borderless always-on-top window; p switches back.")
    var pip = false

    @OptionGroup(title: "360° video") var panorama: PanoramaOptions

    @OptionGroup(title: "Resume") var resumeOptions: ResumeOptions

    @Option(name: .customLong("input-ipc-server"), help: ArgumentHelp("Listen on this Unix socket for mpv's JSON IPC (one JSON command per line), so that mpv's clients drive Reel: socat scripts, python-mpv-jsonipc, remotes. Beyond mpv's commands, gift-start SPEC (as --overlay takes it) starts a gift and answers its id, gift-stop ID stops it.",
                                                                      valueName: "path"))
    var inputIPCServer: String?

    @Flag(inversion: .prefixedNo, help: "Be an MPRIS player on the session D-Bus when there is one, so that media keys and playerctl drive Reel.")
    var mpris = true

    @Option(help: ArgumentHelp("Draw a VAP animation (a gift) over the picture from SECONDS into the input (at once without): pos is center, top, bottom, X:Y:W:H in video pixels or X:Y:W:Hw in window pixels; scale up to 1; z orders animations; loops 0 plays until the end; sTxtN and sImgN fill its fusion sources. May be repeated.",
                               valueName: "PATH[@SECONDS][,pos=…][,scale=…][,z=…][,loops=…][,sTxt1=…][,sImg1=…]"))
    var overlay: [String] = []

    @Option(name: .customLong("overlay-cache"), help: ArgumentHelp("Keep up to this much of the gifts' rendered frames (K, M or G; 0 keeps none), so that a gift shown again is not decoded again.",
                                                                   valueName: "size"))
    var overlayCache = ByteSizeOption(bytes: VAPOverlayCache.defaultCapacity)

    @Option(name: .customLong("overlay-budget"), help: ArgumentHelp("Millions of pixels a second the gifts playing may make in all (each gift's width × height × frame rate; 0: no limit): a gift beyond it is refused with a line saying why.",
                                                                    valueName: "Mpx/s"))
    var overlayBudget = PlayerOverlays.defaultBudget / 1_000_000

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if inputs.isEmpty && playlist == nil { throw ValidationError("give an input to play (a file or URL), or --playlist FILE") }
        try recording.check(recordsToFile: liveOptions.record != nil)
        try talkBack.check(inputs: inputs)
        if recording.recordDirectory != nil {
            guard inputs.count == 1, playlist == nil, CameraRecordingOptions.canRecordSeparately(inputs[0]) else {
                throw ValidationError("--record-dir records one live network stream (rtsp, rtmp, srt as a caller, http), read beside the player; use --record FILE for a file or a playlist")
            }
        }
        guard LoopCount(parsing: loopFile) != nil else { throw ValidationError("--loop-file takes a count, inf or no (got \(loopFile))") }
        guard let plays = playlistPasses else { throw ValidationError("--loop-playlist takes a count, inf or no (got \(loopPlaylist))") }
        if plays == .times(0) { throw ValidationError("--loop-playlist 0 would play nothing; 1 plays the list once") }
        guard (0.5...2).contains(rate) else { throw ValidationError("--rate must be between 0.5 and 2") }
        guard (0...100).contains(volume ?? 100) else { throw ValidationError("--volume must be between 0 and 100") }
        guard readAhead > 0, readAhead <= 3600 else { throw ValidationError("--demuxer-readahead-secs takes seconds above 0, up to 3600 (got \(readAhead))") }
        if let maxHeight, maxHeight < 1 { throw ValidationError("--max-height takes a number of rows (got \(maxHeight))") }
        for request in tap where TapOption(parsing: request) == nil {
            throw ValidationError("--tap takes y4m:PATH or png:DIR (got \(request))")
        }
        if let chapter {
            guard chapter >= 1 else { throw ValidationError("--chapter counts from 1 (got \(chapter))") }
            if start != nil { throw ValidationError("--chapter and --start both say where to start; give one") }
        }
        guard tapEvery >= 1 else { throw ValidationError("--tap-every must be at least 1") }
        if noAudio && noVideo { throw ValidationError("--no-audio and --no-video leave nothing to play") }
        if noAudio && audioOut != nil { throw ValidationError("--audio-out writes the sound played; --no-audio plays none") }
        guard let request = TrackRequest(mpvTrackID: aid) else { throw ValidationError("--aid takes a number from 1, auto or no (got \(aid))") }
        if alang != nil && request != .automatic() { throw ValidationError("--alang chooses among the tracks that --aid \(aid) already chose") }
        if (abLoopA == nil) != (abLoopB == nil) { throw ValidationError("--ab-loop-a and --ab-loop-b go together") }
        if let abLoopA, let abLoopB, !(abLoopA >= 0 && abLoopB > abLoopA) {
            throw ValidationError("--ab-loop-b must be after --ab-loop-a (got \(abLoopA) and \(abLoopB))")
        }
        if let frames, frames < 1 { throw ValidationError("--frames takes a number of frames from 1 (got \(frames))") }
        if frames != nil && noVideo { throw ValidationError("--frames counts video frames; --no-video shows none") }
        if abLoopCount != "inf" && !(Int(abLoopCount).map { $0 >= 0 } ?? false) {
            throw ValidationError("--ab-loop-count takes a number of loops from 0, or inf (got \(abLoopCount))")
        }
        if pip && headless { throw ValidationError("--pip needs a window; it cannot be used with --headless") }
        guard overlayBudget.isFinite, overlayBudget >= 0 else { throw ValidationError("--overlay-budget takes millions of pixels a second from 0 (no limit) (got \(overlayBudget))") }
        for text in overlay {
            do {
                _ = try OverlayRequest(parsing: text)
            } catch {
                throw ValidationError(error.description)
            }
        }
        guard volumeGain.isFinite, abs(volumeGain) <= 60 else { throw ValidationError("--volume-gain takes decibels from -60 to 60 (got \(volumeGain))") }
        if let audioFilters {
            do {
                try LoudnessStage.validate(audioFilters)
            } catch {
                throw ValidationError("--af \(audioFilters): \(error)")
            }
        }
        try panorama.validate()
        if headless && window.isSet { throw ValidationError("--geometry, --fs, --ontop, --gravity and --aspect shape the window; they cannot be used with --headless") }
        for request in snapshot where Self.parseSnapshot(request) == nil {
            throw ValidationError("--snapshot takes T:FILE, e.g. 2.5:frame.png (got \(request))")
        }
    }

    /// How many times the list plays: mpv's `--loop-playlist=no` plays it once.
    var playlistPasses: LoopCount? {
        loopPlaylist.lowercased() == "no" ? .times(1) : LoopCount(parsing: loopPlaylist)
    }

    static func parseSnapshot(_ text: String) -> (time: Double, path: String)? {
        guard let colon = text.firstIndex(of: ":"), let time = Double(text[..<colon]), time >= 0 else { return nil }
        let path = String(text[text.index(after: colon)...])
        return path.isEmpty ? nil : (time, path)
    }

    func run() async throws {
        common.setUpLogging()
        var configuration = Player.Configuration()
        configuration.input = common.demuxOptions
        configuration.untimed = untimed
        configuration.clockMaster = clock
        configuration.decoder = DecoderOptions(threadCount: threads)
        configuration.maximumVariantHeight = maxHeight
        configuration.packetQueueSeconds = readAhead
        configuration.engine = engine.selection
        configuration.rotation = rotate.rotation
        configuration.tapsOrientedFrames = tapRotate
        configuration.toneMapping = toneMapping.curve
        configuration.deinterlace = deinterlace
        configuration.deinterlaceMode = deinterlaceMode
        configuration.normalization = normalize
        configuration.audioFilters = audioFilters
        configuration.volumeGain = volumeGain
        configuration.screenshotDirectory = screenshotDir
        configuration.audioTrack = TrackRequest(mpvTrackID: aid, languages: alang)
        subtitles.apply(to: &configuration)
        liveOptions.apply(to: &configuration)
        network.apply(to: &configuration)
        // Named as given (no password) in the window's title and on stderr.
        let names: [String]
        do {
            names = try inputs + (playlist.map(PlaylistFile.entries(atPath:)) ?? [])
        } catch {
            throw fail("\(error)")
        }
        let items = names.map { network.apply(to: $0, options: &configuration.input) }
        guard let queue = Playlist(items, loopFile: LoopCount(parsing: loopFile) ?? .times(0), loopPlaylist: playlistPasses ?? .times(1)) else {
            throw fail("no input to play")
        }
        let input = names[0]
        // One file: where Q left it, its tracks unless told.
        let resumed = names.count == 1 ? resumeOptions.pointToResume(for: input, startGiven: start != nil || chapter != nil) : nil
        if let resumed {
            if aid == "auto" && alang == nil { configuration.audioTrack = resumed.audioTrack.map { TrackRequest.number($0) } ?? TrackRequest.none }
            if subtitles.sid == "auto" && subtitles.slang == nil { configuration.subtitleTrack = resumed.subtitleTrack.map { TrackRequest.number($0) } ?? TrackRequest.none }
        }
        let startAt = start ?? resumed?.position

        let headlessVideo = HeadlessVideoOutput()
        let frameTap = FrameTap.withLibswscaleFallback()
        let player: Player
        let view = try panorama.settings(for: input)
        // Headless, a 360° source is shown as a view too: snapshots and taps hold it.
        let panoramaOutput = try headless ? view.map { settings in
            let size = panorama.parsedViewSize ?? (1280, 720)
            return try PanoramaVideoOutput(wrapping: headlessVideo, settings: settings, width: size.width, height: size.height, frameTap: frameTap)
        } : nil
        let (noVideo, noAudio) = (self.noVideo, self.noAudio)
        let soundFile: SoundFile?
        do {
            soundFile = try audioOut.map { try SoundFile(path: $0) }
        } catch {
            throw fail("--audio-out: \(error)")
        }
        let untimed = self.untimed
        var soundFileOutput: (@Sendable () -> (any AudioOutput)?)?
        if let soundFile {
            soundFileOutput = { HeadlessAudioOutput(untimed: untimed, soundFile: soundFile) }
        }
        if headless || noVideo {
            player = Player(configuration: configuration, frameTap: frameTap,
                            videoOutput: { () -> VideoOutput? in
                                if noVideo { return nil }
                                if let panoramaOutput { return panoramaOutput }
                                return headlessVideo
                            },
                            audioOutput: soundFileOutput ?? { [untimed, headless] () -> AudioOutput? in
                                if noAudio { return nil }
                                if headless { return HeadlessAudioOutput(untimed: untimed) }
                                return WindowOutputs.soundDevice()
                            })
        } else {
            let settings = view
            guard let outputs = WindowOutputs.make(title: "Reel — \(input)", frameTap: frameTap, pictureInPicture: pip, panorama: settings,
                                                  window: window.options) else {
                throw fail("no display to open a window on (DISPLAY is not set); run with --headless to play without one")
            }
            let deviceAudio = outputs.audio
            let audio: @Sendable () -> (any AudioOutput)? = soundFileOutput ?? { noAudio ? nil : deviceAudio() }
            player = Player(configuration: configuration, frameTap: frameTap, videoOutput: outputs.video, audioOutput: audio)
        }
        for request in snapshot.compactMap(Self.parseSnapshot) { headlessVideo.snapshot(at: request.time, to: request.path) }
        let taps: TapWriters
        do {
            taps = try TapWriters(options: tap.compactMap(TapOption.init(parsing:)), tap: player.frameTap, every: tapEvery)
        } catch {
            throw fail("tap: \(error)")
        }

        let giftFrames = overlayCache.bytes > 0 ? VAPOverlayCache(capacity: overlayCache.bytes) : nil
        player.overlays.budget = overlayBudget > 0 ? overlayBudget * 1_000_000 : nil
        for text in overlay {
            do {
                let request = try OverlayRequest(parsing: text)
                let animation = try VAPOverlayAnimation(request: request, cache: giftFrames)
                try player.overlays.start(animation, placement: request.placement, z: request.z, loops: request.loops, at: request.start)
            } catch {
                throw fail("--overlay '\(text)': \(error)")
            }
        }
        if let record = liveOptions.record {
            do {
                try player.startRecording(to: record, segmentSeconds: recording.recordSegment)
            } catch {
                throw fail("--record: \(error)")
            }
        }
        // An NVR's recording of the first input: a reader of its own, copying packets.
        let recorder: CameraRecorder?
        do {
            recorder = try recording.recordDirectory.map { try recording.startRecorder(url: items[0], directory: $0, input: configuration.input) }
        } catch {
            throw fail("--record-dir: \(error)")
        }
        if let recorder { CameraRecordingOptions.report(recorder, name: "--record-dir") }
        // However playback ends (an open that fails too), the last segment is closed and indexed.
        defer { recorder?.stop() }
        let remote: RemoteControl
        do {
            remote = try RemoteControl(socket: inputIPCServer, mpris: mpris, player: player) { request in
                try VAPOverlayAnimation(request: request, cache: giftFrames)
            }
        } catch {
            throw fail("--input-ipc-server: \(error)")
        }
        defer { remote.close() }
        let startedAt = Date()
        let interrupts = InterruptSignals { player.stop() }
        try await failing {
            do {
                try await player.open(queue, startingAt: startAt)
            } catch let error as PlaylistError where error.failures.count == 1 {
                throw error.failures[0].error.underlying
            }
        }
        var startTime = startAt ?? 0
        if let chapter {
            let chapters = player.chapters
            guard chapters.indices.contains(chapter - 1) else {
                player.stop()
                throw fail("--chapter \(chapter): the input has \(chapters.isEmpty ? "no chapters" : "\(chapters.count) chapter\(chapters.count == 1 ? "" : "s")")")
            }
            player.seek(toChapter: chapter - 1)
            startTime = chapters[chapter - 1].startTime
        }
        if case .number(let number) = configuration.subtitleTrack, player.currentSubtitleTrack == nil, !noVideo {
            let count = player.tracks.filter { $0.type == .subtitle }.count
            FileHandle.standardError.write(Data("reel: --sid \(number): the input has \(count) subtitle track\(count == 1 ? "" : "s") that can be shown; playing without subtitles\n".utf8))
        }
        if case .number(let number) = configuration.audioTrack, player.currentAudioTrack == nil, !noAudio {
            let count = player.tracks.filter { $0.type == .audio }.count
            FileHandle.standardError.write(Data("reel: --aid \(number): the input has \(count) audio track\(count == 1 ? "" : "s"); playing without sound\n".utf8))
        }
        player.volume = volume.map { $0 / 100 } ?? resumed?.volume ?? 1
        player.rate = rate
        player.muted = mute
        if let abLoopA, let abLoopB {
            player.abLoop = ABLoop(from: abLoopA, to: abLoopB, times: abLoopTimes)
        } else if abLoopTimes != nil {
            player.abLoop = ABLoop(times: abLoopTimes)
        }
        // A signal during opening found no playback to stop: end here the same way.
        if interrupts.received { player.stop() } else if !pause { player.play() }
        let talk: TalkBack?
        do {
            talk = interrupts.received ? nil : try talkBack.start(on: player)
        } catch {
            player.stop()
            throw fail("--talk: \(error)")
        }
        defer {
            if let talk {
                talk.stop()
                TalkOptions.report(talk)
            }
        }

        let reporter = stats ? StatsReporter(player: player) : nil
        reporter?.start()
        var failure: PlayerError?
        let end = duration.map { startTime + $0 }
        // --duration and --frames: stop within a frame of the end, not at the next time event.
        let stopper = end == nil && frames == nil ? nil : Task { [frames] in
            while !Task.isCancelled {
                if let end, let position = player.currentTime, position >= end { player.stop(); return }
                if let frames, player.statistics.framesShown >= frames { player.stop(); return }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        var failedItems: Set<Int> = []
        var (quitSavingPosition, ended) = (false, false)
        loop: for await event in player.events {
            remote.forward(event)
            switch event {
            case .quitAsked(let saving): quitSavingPosition = saving
            case .itemStarted(let index, _) where items.count > 1:
                FileHandle.standardError.write(Data("Playing: \(names[index])\n".utf8))
            case .itemFailed(let index, _, let error) where items.count > 1:
                failedItems.insert(index)
                FileHandle.standardError.write(Data("reel: \(names[index]): \(error)\n".utf8))
            case .reconnecting(let attempt, let reason):
                FileHandle.standardError.write(Data("reel: \(reason); reconnecting (attempt \(attempt))\n".utf8))
            case .variantChanged(let width, let height, let bandwidth) where stats:
                FileHandle.standardError.write(Data("reel: variant \(width)x\(height) (bandwidth \((bandwidth ?? 0) / 1000) kbit/s)\n".utf8))
            case .engineFallback(let from, let to, let reason):
                FileHandle.standardError.write(Data("reel: \(from.rawValue) cannot play it (\(reason)); trying \(to.rawValue)\n".utf8))
            case .recordingFailed(let error):
                FileHandle.standardError.write(Data("reel: --record: \(error); recording stopped, playback goes on\n".utf8))
            case .reconnected(let attempts, let seconds):
                FileHandle.standardError.write(Data(String(format: "reel: reconnected after %d attempt%@, %.1f s\n", attempts, attempts == 1 ? "" : "s", seconds).utf8))
            case .firstPictureAfterReconnect(let seconds, let outage):
                FileHandle.standardError.write(Data(String(format: "reel: picture back %.2f s after the attempt that succeeded began, %.2f s after the loss\n", seconds, outage).utf8))
            case .endOfStream:
                ended = true
                break loop
            case .stateChanged(.idle):
                if !remote.ends(at: event, player: player) { continue loop }
                break loop
            case .error(let error):
                failure = error
                break loop
            default: break
            }
        }
        stopper?.cancel()
        reporter?.stop()
        remote.close()
        let recordingError: (any Error)?
        do {
            try player.stopRecording()
            recordingError = nil
        } catch {
            recordingError = error
        }
        player.stop()
        recorder?.stop()
        let report = player.statistics
        if names.count == 1 {
            do {
                try resumeOptions.finish(input, point: player.resumePoint, quitSavingPosition: quitSavingPosition, ended: ended && failure == nil)
            } catch {
                FileHandle.standardError.write(Data("reel: cannot save the position: \(error)\n".utf8))
            }
        }
        if let reporter { reporter.printReport(report, wallSeconds: Date().timeIntervalSince(startedAt)) }
        if let glass = report.glassToGlass {
            FileHandle.standardError.write(Data("reel: glass-to-glass latency \(glass.line)\n".utf8))
        }
        for error in headlessVideo.errors { FileHandle.standardError.write(Data("reel: snapshot: \(error)\n".utf8)) }
        if failure == nil, let error = panoramaOutput?.error { throw fail("cannot show the 360° view: \(error)") }
        let tapError = taps.finish(verbose: stats)
        do {
            try soundFile?.finish()
        } catch {
            throw fail("--audio-out: \(error)")
        }
        withExtendedLifetime(interrupts) {}
        if let failure { throw fail(failure.description) }
        if let recordingError { throw fail("--record: \(recordingError)") }
        if let glass = report.glassToGlass, glass.pictures == 0, failure == nil {
            throw fail("--measure-latency: none of the \(glass.unreadable) pictures shown carried a readable timecode (`reel encode --camera --timecode` draws one)")
        }
        if let tapError { throw fail("tap: \(tapError)") }
        if !failedItems.isEmpty { throw fail("\(failedItems.count) of the \(items.count) inputs could not be played") }
        if remote.exitCode != 0 { throw ExitCode(remote.exitCode) }
    }
}
