import ArgumentParser
import Foundation
import Reel

/// Where the alpha is in files without a `vapc` box, and what to fuse in.
struct VAPOptions: ParsableArguments {
    @Option(help: "For files without a vapc box: the half that holds the alpha (left, right, top, bottom), or detect.")
    var alpha: String = "left"

    @Option(name: .customLong("text"), help: "Text for a fusion source, TAG=STRING (repeatable), e.g. '[sTxt1]=Hello'.")
    var texts: [String] = []

    @Option(name: .customLong("image"), help: "Image file for a fusion source, TAG=PATH (repeatable).")
    var images: [String] = []

    @Option(help: "Text size in pixels instead of the largest that fits.")
    var fontSize: Int?

    func validate() throws {
        guard alpha == "detect" || VAPLayout.AlphaSide(rawValue: alpha) != nil else {
            throw ValidationError("--alpha takes left, right, top, bottom or detect")
        }
        for pair in texts + images where !pair.contains("=") { throw ValidationError("\(pair): expected TAG=VALUE") }
        if let fontSize, !(1...2048).contains(fontSize) { throw ValidationError("--font-size must be between 1 and 2048") }
    }

    var content: VAPFusionContent {
        func pairs(_ list: [String]) -> [String: String] {
            Dictionary(list.map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), String(parts[1]))
            }, uniquingKeysWith: { _, last in last })
        }
        return VAPFusionContent(texts: pairs(texts), imageFiles: pairs(images), fontSize: fontSize)
    }

    /// The layout to impose on `path`: `nil` when it has a vapc box.
    func layout(for path: String) throws -> VAPLayout? {
        let file = try VAPFile(source: MP4FileSource(path: path))
        guard file.config == nil else { return nil }
        if alpha == "detect" { return try VAPRenderer.detectLayout(path: path) }
        return VAPLayout(alpha: VAPLayout.AlphaSide(rawValue: alpha) ?? .left, videoWidth: file.videoWidth, videoHeight: file.videoHeight)
    }
}
