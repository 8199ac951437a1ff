import Foundation
import Reel
import Testing

extension ServerPlaybackTests {
    /// A live RTMP stream from nginx played with a timeshift: paused, gone back and brought
    /// live again, every picture shown is the published file's picture of that time (by
    /// ffmpeg's framemd5 of the file), and the disk holds no more than the window.
    @Suite(.serialized) struct TimeshiftPlaybackTests {
        /// 90 s at 25 fps, a keyframe each second, no B-frames, with sound.
        private func published() throws -> String {
            try Fixtures.made("timeshift-source-90s.mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=90", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=90",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-bf", "0", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        }

        /// The most bytes of the file's packets (all streams) in any `seconds` of it, by ffprobe.
        private func mostBytes(in seconds: Double, of path: String) throws -> Int {
            let result = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "packet=pts_time,size", "-of", "csv=p=0", path])
            let packets = result.stdout.split(separator: "\n").compactMap { line -> (time: Double, size: Int)? in
                let fields = line.split(separator: ",")
                guard fields.count == 2, let time = Double(fields[0]), let size = Int(fields[1]) else { return nil }
                return (time, size)
            }.sorted { $0.time < $1.time }
            var most = 0, total = 0, first = 0
            for packet in packets {
                total += packet.size
                while packets[first].time < packet.time - seconds {
                    total -= packets[first].size
                    first += 1
                }
                most = max(most, total)
            }
            return most
        }

        @Test(.timeLimit(.minutes(3))) func pauseGoBackAndGoLiveShowThePublishedPicturesOfThoseTimes() async throws {
            let file = try published()
            let reference = try referenceFrames(file)
            let indexByHash = Dictionary(reference.enumerated().map { ($1.md5, $0) }, uniquingKeysWith: { first, _ in first })
            // Going back 20 s after a 5 s pause needs 25 s and what the seek takes.
            let window = 30.0
            // The window and a segment (at most the first keyframe 2 s on: 3 s), as the
            // file's packets fill them at their fullest, and a block per file for rounding.
            let bound = try mostBytes(in: window + 3, of: file) + 16 * 4096

            let server = try RTMPServer()
            defer { server.stop() }
            let publisher = try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", file, "-c", "copy", "-f", "flv", server.url()])
            defer { publisher.stop() }
            try server.waitForPublisher(publisher)
            var configuration = Player.Configuration()
            configuration.timeshift = window
            let video = RecordingVideoOutput()
            let player = Player(configuration: configuration, videoOutput: { video }, audioOutput: { HeadlessAudioOutput() })
            let events = EventLog(player)
            let disk = DiskWatch { player.statistics.timeshiftBytes ?? 0 }
            defer { disk.stop() }
            try await player.open(server.url())
            player.play()
            let position = { (seconds: Double) in { (event: PlayerEvent) in if case .time(let position) = event { position >= seconds } else { false } } }
            try #require(await events.wait(timeout: 40, for: position(22)), "\(events.states)")

            // Paused 5 s: the picture stays, and playing on goes on from it.
            // A picture the display loop had already chosen may still land after the pause.
            let shownAtPause = video.count
            player.pause()
            try await Task.sleep(for: .seconds(5))
            let paused = try #require(video.shown.last)
            #expect(video.count <= shownAtPause + 1, "nothing shown while paused: \(video.count - shownAtPause) after the pause")
            let pausedIndex = try #require(indexByHash[paused.md5], "the paused picture is one of the file's")

            // Back 20 s from the paused picture, exactly: the file's picture 20 s (500) before.
            let shownBeforeSeek = video.count
            let start = player.mediaInfo?.format.startTime ?? 0
            // Just past the picture's start: the picture covering the target is the one shown.
            player.seek(to: paused.pts - 20 - start + 0.0001, mode: .exact)
            player.play()
            try #require(await events.wait(timeout: 20) { _ in video.count >= shownBeforeSeek + 125 }, "5 s shown after going back")
            let behindBeforeLive = Array(video.shown[shownBeforeSeek...])
            let behindStart = indexByHash[behindBeforeLive[0].md5]
            #expect(behindStart == pausedIndex - 500, "first picture after going back 20 s: \(behindStart ?? -1), paused at \(pausedIndex)")
            let latencyBehind = player.statistics.liveLatency ?? 0
            #expect(latencyBehind > 20, "behind on purpose: \(latencyBehind) s")

            // Live again: back to the target latency (0.3 s) within 100 ms of it.
            let shownBeforeLive = video.count
            let wentLive = monotonicSeconds()
            let eventsBeforeLive = events.all.count
            player.goLive()
            let onTarget = { (event: PlayerEvent) in if case .liveLatency(let latency) = event { latency <= 0.3 + 0.1 } else { false } }
            try #require(await events.wait(timeout: 20, skipping: eventsBeforeLive, for: onTarget), "\(events.all.suffix(20))")
            let backLive = monotonicSeconds() - wentLive
            try #require(await events.wait(timeout: 20) { _ in video.count >= shownBeforeLive + 100 }, "4 s shown after going live")
            let statistics = player.statistics
            player.stop()
            // Until the seek lands, pictures from behind go on; the jump of more than a
            // second in the file is where the live ones start.
            let afterGoLive = Array(video.shown[shownBeforeLive...])
            let jump = (1..<afterGoLive.count).first { index in
                (indexByHash[afterGoLive[index].md5] ?? 0) - (indexByHash[afterGoLive[index - 1].md5] ?? 0) > 25
            } ?? 0
            let behind = behindBeforeLive + afterGoLive[..<jump]
            let live = Array(afterGoLive[jump...])

            // Every picture is one of the file's, in the file's order, in each stretch.
            for (name, stretch) in [("before the pause", Array(video.shown[..<shownBeforeSeek])), ("behind", behind), ("live again", live)] {
                let indices = stretch.map { indexByHash[$0.md5] }
                #expect(indices.allSatisfy { $0 != nil }, "\(name): a picture that is not the file's")
                let known = indices.compactMap { $0 }
                #expect(zip(known, known.dropFirst()).allSatisfy { $1 > $0 }, "\(name): out of the file's order")
            }
            let gaps = [behind, live].reduce(0) { total, stretch in
                let known = stretch.compactMap { indexByHash[$0.md5] }
                return total + zip(known, known.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0 - 1) }
            }
            let liveIndex = live.first.flatMap { indexByHash[$0.md5] } ?? 0
            let mostOnDisk = disk.most
            print(String(format: "timeshift: paused at picture %d, back 20 s to %d, behind %.2f s; live again (latency ≤ 0.4 s) %.2f s after going live, from picture %d; %d pictures skipped behind and after (dropped %d); disk at most %.1f MB (open files %.1f MB), bound %.1f MB",
                         pausedIndex, behindStart ?? -1, latencyBehind, backLive, liveIndex, gaps, statistics.framesDropped,
                         Double(mostOnDisk) / 1e6, Double(disk.mostOpenFilesBytes) / 1e6, Double(bound) / 1e6))
            #expect(!live.isEmpty && liveIndex > pausedIndex + 125, "live again is well after the pause: \(liveIndex)")
            #expect(gaps <= statistics.framesDropped, "pictures missing that were not dropped as late: \(gaps)")
            #expect(mostOnDisk > 0 && mostOnDisk <= bound, "disk \(mostOnDisk) bytes, bound \(bound)")
            #expect(disk.mostOpenFilesBytes <= bound, "by the system's count of the open files: \(disk.mostOpenFilesBytes)")
        }
    }
}

/// Samples, every 100 ms until stopped, the timeshift's bytes on disk as the player counts
/// them and as the system counts the files this process holds open under a timeshift's
/// name (unlinked, so only `/proc/self/fd` still shows them).
final class DiskWatch: @unchecked Sendable {
    private let state = LockedValue<(most: Int, mostOpenFiles: Int, stopped: Bool)>((0, 0, false))

    init(_ reported: @escaping @Sendable () -> Int) {
        let state = state
        Thread.detachNewThread {
            while !state.withLock({ $0.stopped }) {
                let (counted, open) = (reported(), Self.openTimeshiftBytes())
                state.withLock { $0.most = max($0.most, counted); $0.mostOpenFiles = max($0.mostOpenFiles, open) }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    var most: Int { state.withLock { $0.most } }
    var mostOpenFilesBytes: Int { state.withLock { $0.mostOpenFiles } }
    func stop() { state.withLock { $0.stopped = true } }

    static func openTimeshiftBytes() -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.reduce(0) { total, name in
            let link = "/proc/self/fd/\(name)"
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link), target.contains("reel-timeshift-") else { return total }
            var status = stat()
            return stat(link, &status) == 0 ? total + Int(status.st_blocks) * 512 : total
        }
    }
}
