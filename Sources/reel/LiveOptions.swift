import ArgumentParser
import Reel

/// How `reel play` treats a live input: whether it is one, and how far behind the newest
/// media it plays.
struct LiveOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Play as a live input: auto (live protocols, network inputs without a duration), on, off. Live: a small probe, no buffering, low-delay decoding, latency kept on --latency.",
                               valueName: "auto|on|off"))
    var live: String = "auto"

    @Option(help: ArgumentHelp("A live input's target latency in seconds: above it by 0.1 s for a second, playback catches up at 1.1× (pitch kept); above 8 s, and at the start, it jumps.",
                               valueName: "seconds"))
    var latency: Double = LiveLatency().target

    @Option(name: .customLong("reconnect-for"), help: ArgumentHelp("When a live input ends or fails, open it again (back-off 0.25 s to 4 s) for up to this many seconds before giving up; 0 ends at once.",
                                                                   valueName: "seconds"))
    var reconnectFor: Double = Player.Configuration().reconnectFor

    @Option(help: ArgumentHelp("Record what is played to FILE without re-encoding, from the next keyframe (mkv, mp4 in fragments, ts; by its extension); a reconnect starts FILE-001.ext, and so on.",
                               valueName: "file"))
    var record: String?

    @Option(help: ArgumentHelp("Keep this much of a live input on disk (10m, 90s, 1h; no re-encoding) so that pause, seeking back and End (live again) work inside it; live catch-up waits while you are behind on purpose.",
                               valueName: "duration"))
    var timeshift: String?

    @Option(name: .customLong("timeshift-dir"), help: ArgumentHelp("Where --timeshift makes its files (unlinked at once: nothing stays); the temporary directory by default.",
                                                                   valueName: "directory"))
    var timeshiftDirectory: String?

    @Flag(name: .customLong("measure-latency"), help: "Read the timecode `reel encode --camera --timecode` draws from every picture shown and report the latency from capture to screen (p50, p95, max, unreadable pictures) in --stats and at the end.")
    var measureLatency = false

    @Option(name: .customLong("latency-warmup"), help: ArgumentHelp("With --measure-latency, leave out the pictures of the first SECONDS after the first one read.",
                                                                    valueName: "seconds"))
    var latencyWarmup: Double = 0

    func validate() throws {
        guard latencyWarmup >= 0 else { throw ValidationError("--latency-warmup takes seconds, 0 or more (got \(latencyWarmup))") }
        guard reconnectFor >= 0 else { throw ValidationError("--reconnect-for takes seconds, 0 or more (got \(reconnectFor))") }
        if let timeshift, !(DurationText.seconds(timeshift).map { $0 > 0 } ?? false) {
            throw ValidationError("--timeshift takes a length above 0 such as 10m, 90s, 1h30m or 600 (got \(timeshift))")
        }
        if timeshiftDirectory != nil && timeshift == nil { throw ValidationError("--timeshift-dir says where --timeshift keeps its files; give --timeshift DURATION") }
        guard LiveMode(rawValue: live) != nil else { throw ValidationError("--live takes auto, on or off (got \(live))") }
        guard latency >= 0, latency < LiveLatency().jumpAbove else {
            throw ValidationError("--latency takes seconds from 0 to under \(Int(LiveLatency().jumpAbove)) (got \(latency))")
        }
    }

    func apply(to configuration: inout Player.Configuration) {
        configuration.live = LiveMode(rawValue: live) ?? .auto
        configuration.liveLatency.target = latency
        configuration.reconnectFor = reconnectFor
        configuration.timeshift = timeshift.flatMap(DurationText.seconds)
        configuration.timeshiftDirectory = timeshiftDirectory
        configuration.measuresLatency = measureLatency
        configuration.latencyWarmup = latencyWarmup
    }
}
