import Foundation
import ReelCore

/// libFuzzer's entry: the input is a playlist file's bytes (`reel play --playlist`), read
/// as if it lay in a directory, at the working directory and at the root. Entries Reel
/// accepts must be non-empty and free of NUL, within the entry limit, relative ones under the
/// playlist's directory. The input's first bytes then drive the queue (ends, failures,
/// moves by any offset, selections, both loops): the current item stays in the list, and a
/// list that does not loop finishes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylist(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    for path in ["/media/lists/list.m3u", "list.m3u", "/list.pls"] {
        guard let entries = try? PlaylistFile.entries(of: bytes, path: path) else { continue }
        check(entries, from: path)
        drive(entries, with: Array(bytes.prefix(64)))
    }
    return 0
}

private func check(_ entries: [String], from path: String) {
    if entries.isEmpty || entries.count > PlaylistFile.maximumEntries { fatalError("\(entries.count) entries accepted") }
    let directory = (path as NSString).deletingLastPathComponent
    for entry in entries {
        // A `file://` URL's percent escapes may make any byte but NUL (a name can hold a
        // line break); NUL would cut the path short in the C calls that open it.
        if entry.isEmpty || entry.utf8.contains(0) { fatalError("an empty entry or one with a NUL: \(entry.debugDescription)") }
        if !directory.isEmpty, !entry.contains(":"), !entry.utf8.starts(with: "/".utf8) { fatalError("a relative entry left relative: \(entry.debugDescription)") }
    }
}

private func drive(_ entries: [String], with script: [UInt8]) {
    let loopFile = LoopCount.times(Int(script.first ?? 0) % 3)
    guard var list = Playlist(entries, loopFile: loopFile, loopPlaylist: .times(1)) else { fatalError("no list of \(entries.count) entries") }
    var looping = list
    looping.loopPlaylist = .forever
    for (position, byte) in script.enumerated() {
        let wide = script.dropFirst(position).prefix(8).reduce(0) { $0 << 8 | Int($1) }
        for index in 0..<2 {
            switch byte % 5 {
            case 0: _ = index == 0 ? list.itemEnded() : looping.itemEnded()
            case 1: _ = index == 0 ? list.itemFailed() : looping.itemFailed()
            case 2: _ = index == 0 ? list.move(by: wide) : looping.move(by: wide)
            case 3: _ = index == 0 ? list.move(by: Int(Int8(bitPattern: byte))) : looping.move(by: Int(Int8(bitPattern: byte)))
            default: _ = index == 0 ? list.select(wide) : looping.select(wide)
            }
        }
        if !list.items.indices.contains(list.index) || !looping.items.indices.contains(looping.index) { fatalError("the current item left the list") }
    }
    // Played to the end, a list that does not loop finishes: each item at most once more
    // than its loops for what is left of this pass.
    let bound = entries.count * (Int(script.first ?? 0) % 3 + 1) + 1
    for _ in 0...bound where list.itemEnded() == .finish { return }
    fatalError("a list of \(entries.count) that does not loop played on past \(bound) items")
}
