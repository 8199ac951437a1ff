import Foundation
import Reel
import Testing

/// The suites that play in real time and measure timing finely (sync, latency, jitter,
/// frame intervals), or load every core (the encoders, x264 and x265 take all they find),
/// run inside this one, one at a time, so that none disturbs another. The test command runs
/// this chain in a process of its own, beside the other suites (`scripts/lib/run-suite.sh`).
@Suite(.serialized) enum PlaybackTests {}

/// The suites that play in real time but mostly wait (windows on Xvfb, commands run to
/// their end), use little CPU and allow seconds, not milliseconds, run inside this one, one
/// at a time. The test command runs this chain at a lower priority beside `PlaybackTests`,
/// after the first half of `ServerPlaybackTests`: in one chain with the others they spent
/// about 500 s with the machine three-quarters idle.
@Suite(.serialized) enum LightPlaybackTests {}

/// The suites that play from real servers (RTSP, RTMP, SRT, HTTP) that go away, stall and
/// come back: they wait on the servers and allow seconds. The test command runs this chain
/// at a lower priority from the start, in two processes of about half its suites each,
/// beside the parallel suites and `PlaybackTests` (`scripts/lib/run-suite.sh`).
@Suite(.serialized) enum ServerPlaybackTests {}

/// A video output for tests: records each presented frame's time and MD5.
final class RecordingVideoOutput: VideoOutput, @unchecked Sendable {
    struct Shown { var pts: Double; var md5: String; var deviceTime: Double; var height = 0 }
    private let log = LockedValue<[Shown]>([])
    private var md5 = FrameMD5()
    /// Called on the display thread with each picture as it is shown.
    private let onShown: (@Sendable (Shown) -> Void)?

    init(onShown: (@Sendable (Shown) -> Void)? = nil) {
        self.onShown = onShown
    }

    func present(_ frame: VideoFrame) {
        let hash = md5.hash(frame)
        let shown = Shown(pts: frame.presentationTime?.seconds ?? .nan, md5: hash, deviceTime: monotonicSeconds(), height: frame.height)
        log.withLock { $0.append(shown) }
        onShown?(shown)
    }
    func idle(status: PlaybackStatus) -> [UserCommand] { [] }
    func close() {}

    var shown: [Shown] { log.copy() }
    var count: Int { log.withLock { $0.count } }
}

/// Collects a player's events as they come.
final class EventLog: @unchecked Sendable {
    private let events = LockedValue<[PlayerEvent]>([])
    private var task: Task<Void, Never>?

    init(_ player: Player) {
        task = Task { [events] in
            for await event in player.events { events.withLock { $0.append(event) } }
        }
    }

    var all: [PlayerEvent] { events.copy() }
    var states: [PlayerState] { all.compactMap { if case .stateChanged(let state) = $0 { state } else { nil } } }

    /// Waits until `predicate` holds for some event, up to `timeout` seconds (without
    /// blocking a thread of the cooperative pool, which delivers the events).
    /// Only events after the first `skipping` count (those of a session replaced since).
    @discardableResult
    func wait(timeout: Double = 10, skipping: Int = 0, for predicate: (PlayerEvent) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if all.dropFirst(skipping).contains(where: predicate) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return all.dropFirst(skipping).contains(where: predicate)
    }

    /// How many events came before the first that `predicate` holds for; nil when none did.
    func index(where predicate: (PlayerEvent) -> Bool) -> Int? { all.firstIndex(where: predicate) }

    func count(where predicate: (PlayerEvent) -> Bool) -> Int { all.filter(predicate).count }
}

func isState(_ state: PlayerState) -> (PlayerEvent) -> Bool {
    { if case .stateChanged(let s) = $0 { s == state } else { false } }
}

/// `ffmpeg -f framemd5` of the first video stream: (pts seconds, md5), and keyframe times.
func referenceFrames(_ path: String) throws -> [(pts: Double, md5: String)] {
    let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"])
    let timeBase = result.stdout.split(separator: "\n").first { $0.hasPrefix("#tb 0: ") }.flatMap { line -> Double? in
        let parts = line.dropFirst(7).split(separator: "/")
        return parts.count == 2 ? Double(parts[0])! / Double(parts[1])! : nil
    } ?? 1
    return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
        let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return (Double(fields[2])! * timeBase, fields[5])
    }
}

/// The first video stream's packets in file (decoding) order, as ffprobe reads them: the
/// presentation time in seconds (nil where there is none) and whether it is a keyframe.
func videoPackets(_ path: String) throws -> [(time: Double?, isKeyframe: Bool)] {
    let result = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", path])
    return result.stdout.split(separator: "\n").map { line in
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        return (Double(fields[0]), fields.count >= 2 && fields[1].contains("K"))
    }
}

func keyframeTimes(_ path: String) throws -> [Double] {
    try videoPackets(path).filter(\.isKeyframe).compactMap(\.time).sorted()
}

/// Keeps both cores busy (a real second process), for tests of behaviour under load.
final class CPULoad {
    private var processes: [BackgroundProcess] = []
    init(cores: Int = 2) throws {
        for _ in 0..<cores { processes.append(try BackgroundProcess("sh", ["-c", "while :; do :; done"])) }
    }
    func stop() { processes.forEach { $0.stop() } }
}

/// Waits until `player` has played to `seconds` (its position), up to `timeout` seconds of
/// wall time; whether it got there.
@discardableResult
func waitForPosition(_ player: Player, _ seconds: Double, timeout: Double = 10) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if (player.currentTime ?? 0) >= seconds { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return (player.currentTime ?? 0) >= seconds
}
