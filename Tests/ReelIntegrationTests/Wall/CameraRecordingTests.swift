import Foundation
import Reel
import Testing

extension ServerPlaybackTests {
    /// A camera recorded as an NVR keeps it (``CameraRecorder``) from gst-rtsp-server: segments
    /// by wall-clock time within a size cap, an index that ffprobe agrees with, and a span
    /// cut back out across two segment boundaries (`reel export`) that is, picture by
    /// picture, ffmpeg's decoding of the file the camera sends.
    @Suite struct CameraRecordingTests {
        static func mp4Bytes(in directory: String) -> Int64 {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.filter { $0.hasSuffix(".mp4") }.reduce(0) { total, name in
                total + (((try? FileManager.default.attributesOfItem(atPath: (directory as NSString).appendingPathComponent(name)))?[.size] as? NSNumber)?.int64Value ?? 0)
            }
        }

        @Test(.timeLimit(.minutes(3))) func segmentsWithinACapAnIndexFFprobeAgreesWithAndAnExportAcrossTwoBoundaries() async throws {
            let directory = try Paths.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = try WallTests.numberedCamera(0, width: 320, height: 180, rate: 15)
            let cameras = try WallCameras([("cam", file)])
            defer { cameras.stop() }
            let folder = directory.appendingPathComponent("cam").path
            // About 5 segments of 2 s kept (a 320×180 all-intra picture is about 6 kB).
            let fileBytes = Int64((try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0)
            let cap = fileBytes * 10 / 8   // 8 s of the file: 10 s
            let recorder = try CameraRecorder(url: cameras.url("cam"), directory: folder, segmentSeconds: 2,
                                              retention: RetentionPolicy(maximumBytes: cap))
            recorder.start()
            var closed: [RecordingIndexEntry] = [], deleted: [String] = [], largest: Int64 = 0
            for await event in recorder.events {
                largest = max(largest, Self.mp4Bytes(in: folder))
                switch event {
                case .segmentClosed(let entry): closed.append(entry)
                case .deleted(let names): deleted += names
                case .failed(let reason): Issue.record("recording stopped: \(reason)")
                default: break
                }
                if closed.count >= 9 || event.isFailure { break }
            }
            recorder.stop()
            largest = max(largest, Self.mp4Bytes(in: folder))
            #expect(largest <= cap, "the recording reached \(largest) bytes, over its cap of \(cap)")
            #expect(!deleted.isEmpty && deleted == closed.map(\.file).prefix(deleted.count).map { $0 }, "deleted \(deleted), oldest first of \(closed.map(\.file))")

            // The index lists the segments on disk, as ffprobe sees them.
            let index = RecordingIndex.entries(of: try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(CameraRecorder.indexName)))
            #expect(index.unreadable == 0)
            let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mp4") })
            #expect(Set(index.entries.map(\.file)).isSubset(of: onDisk), "indexed \(index.entries.map(\.file)), on disk \(onDisk)")
            for entry in index.entries {
                let path = (folder as NSString).appendingPathComponent(entry.file)
                // The file's keyframes as its container flags them (a picture that does not
                // decode is still the recorder's to index).
                let probe = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags",
                                                          "-of", "csv=p=0", path])
                let keyframes = probe.stdout.split(separator: "\n").compactMap { line -> Double? in
                    let fields = line.split(separator: ",")
                    return fields.count >= 2 && fields[1].hasPrefix("K") ? Double(fields[0]) : nil
                }.sorted()
                #expect(keyframes.count == entry.keyframes.count && zip(keyframes, entry.keyframes).allSatisfy { abs($0 - $1) < 0.002 },
                        "\(entry.file): ffprobe's \(keyframes.count) keyframes \(keyframes), the index's \(entry.keyframes.count) \(entry.keyframes)")
                #expect(RecordingClock.start(ofSegment: entry.file).map { abs($0.timeIntervalSince(entry.first)) < 1 } == true, "\(entry.file) named by its start")
            }

            // Across two boundaries: from half a second into a segment to half a second into
            // the one after the next (whole segments: the last, closed at the stop, is short).
            let kept = index.entries.sorted { $0.first < $1.first }
            try #require(kept.count >= 4, "\(kept.count) segments kept")
            let from = kept[kept.count - 4].first.addingTimeInterval(0.5), to = kept[kept.count - 2].first.addingTimeInterval(0.5)
            let output = directory.appendingPathComponent("export.mp4").path
            let exported = try reel("export", "--camera-dir", folder, "--from", RecordingClock.text(from), "--to", RecordingClock.text(to), "-o", output)
            #expect(exported.status == 0, "\(exported.stderr)")
            let pictures = try VAPOverlayTests.rawFrames(output, width: 320, height: 180, in: directory, name: "export").map { Array($0[0..<(320 * 180)]) }
            let source = try VAPOverlayTests.rawFrames(file, width: 320, height: 180, in: directory, name: "source").map { Array($0[0..<(320 * 180)]) }
            let numbers = pictures.map { WallTests.number(in: $0, stride: 320, x: 0, y: 0, width: 320, height: 180) }
            let steps = zip(numbers, numbers.dropFirst()).map { pair in pair.0.flatMap { first in pair.1.map { ($0 - first + 120) % 120 } } }
            #expect(numbers.allSatisfy { $0 != nil } && steps.allSatisfy { $0 == 1 }, "numbers \(numbers)")
            let unlike = zip(pictures, numbers).filter { picture, number in number.map { picture != source[$0] } ?? true }.count
            #expect(unlike == 0, "\(unlike) of \(pictures.count) exported pictures unlike ffmpeg's decoding of the camera's file")
            // Two segments' worth, from the keyframe at or before --from (every picture is one here).
            #expect(abs(Double(pictures.count) / 15 - to.timeIntervalSince(from)) < 0.25,
                    "\(pictures.count) pictures for \(to.timeIntervalSince(from)) s; kept \(kept.suffix(3).map { ($0.file, $0.last.timeIntervalSince($0.first), $0.keyframes.count) }); \(exported.stderr)")
            print("camera recording: \(closed.count) segments closed, \(deleted.count) deleted, largest \(largest) of \(cap) bytes; export \(pictures.count) pictures, each ffmpeg's")
        }
    }
}

extension CameraRecorderEvent {
    var isFailure: Bool { if case .failed = self { true } else { false } }
}
