import Foundation
import ReelCore

/// libFuzzer's entry for what the camera wall and its recordings read: the first byte
/// picks the reader, the rest is its input.
/// - 0: a wall file (`--wall-file`): 1 to 64 cameras, each with a stream and a name of its
///   own, and URLs that still parse once the credentials are in.
/// - 1: a camera's recording index: entries with a plain file name, ordered times and
///   keyframes, whose lines read back as the same entries (to the millisecond); then an
///   export plan over them, whose pieces run forward.
/// - 2: an `--overlay` request: within its documented ranges.
/// - 3: a wall-clock time and a segment name: what is written reads back.
/// - 4: retention durations and sizes: positive and finite.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordings(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let body = Data(bytes: data + 1, count: size - 1)
    let text = String(decoding: body, as: UTF8.self)
    switch data[0] % 5 {
    case 0: checkWallFile(body)
    case 1: checkIndex(body)
    case 2: checkOverlayRequest(text)
    case 3: checkClock(text)
    default: checkRetention(text)
    }
    return 0
}

private func checkWallFile(_ data: Data) {
    guard let cameras = try? WallFile.cameras(of: data, path: "cams") else { return }
    if cameras.isEmpty || cameras.count > 64 { fatalError("\(cameras.count) cameras accepted") }
    if Set(cameras.map(\.name)).count != cameras.count || cameras.contains(where: { $0.name.isEmpty || $0.main.isEmpty }) {
        fatalError("names not unique or empty: \(cameras.map(\.name))")
    }
    // A URL that parsed before its credentials went in parses after.
    for camera in cameras where camera.username != nil {
        for url in [camera.main, camera.sub].compactMap({ $0 }) where URLComponents(string: url)?.host != nil {
            if URLComponents(string: camera.authenticated(url)) == nil {
                fatalError("credentials made \(url.debugDescription) a URL that does not parse: \(camera.authenticated(url).debugDescription)")
            }
        }
    }
}

private func checkIndex(_ data: Data) {
    let (entries, _) = RecordingIndex.entries(of: data)
    for entry in entries {
        if entry.file.isEmpty || entry.file.contains("/") || entry.last < entry.first { fatalError("an entry accepted as it is: \(entry)") }
        if entry.keyframes.contains(where: { !$0.isFinite || $0 < 0 }) || entry.keyframes != entry.keyframes.sorted() { fatalError("keyframes \(entry.keyframes)") }
        let again = RecordingIndex.entries(of: Data((entry.line + "\n").utf8)).entries
        guard again.count == 1, again[0].file == entry.file, abs(again[0].first.timeIntervalSince(entry.first)) < 0.002,
              abs(again[0].last.timeIntervalSince(entry.last)) < 0.002 else {
            fatalError("\(entry) wrote \(entry.line.debugDescription), read back as \(again)")
        }
    }
    guard let first = entries.map(\.first).min(), let last = entries.map(\.last).max() else { return }
    let span = last.timeIntervalSince(first)
    let from = first.addingTimeInterval(span / 3), to = first.addingTimeInterval(span * 2 / 3 + 1)
    guard let plan = try? ExportPlan.plan(entries, from: from, to: to) else { return }
    if plan.pieces.isEmpty || plan.pieces.contains(where: { !($0.start <= $0.end) || $0.start < 0 }) || plan.leadIn < 0 {
        fatalError("an export plan that does not run forward: \(plan)")
    }
}

private func checkOverlayRequest(_ text: String) {
    guard let request = try? OverlayRequest(parsing: text) else { return }
    if request.path.isEmpty || !(0...10_000).contains(request.loops) || abs(request.z) > 1000
        || !(request.placement.scale > 0 && request.placement.scale <= 1) || (request.start.map { !$0.isFinite || $0 < 0 } ?? false) {
        fatalError("a request outside its ranges: \(request)")
    }
}

private func checkClock(_ text: String) {
    if let date = RecordingClock.parse(text) {
        guard let again = RecordingClock.parse(RecordingClock.text(date)), abs(again.timeIntervalSince(date)) < 0.001 else {
            fatalError("\(text.debugDescription) read as \(date), written as \(RecordingClock.text(date))")
        }
        let name = RecordingClock.segmentName(start: date)
        guard let start = RecordingClock.start(ofSegment: name), abs(start.timeIntervalSince(date)) < 1 else {
            fatalError("segment name \(name) read back as \(String(describing: RecordingClock.start(ofSegment: name)))")
        }
    }
    _ = RecordingClock.start(ofSegment: text)
}

private func checkRetention(_ text: String) {
    if let seconds = RetentionPolicy.duration(text), !(seconds.isFinite && seconds > 0) { fatalError("duration \(seconds) from \(text.debugDescription)") }
    if let bytes = RetentionPolicy.size(text), bytes <= 0 { fatalError("size \(bytes) from \(text.debugDescription)") }
}
