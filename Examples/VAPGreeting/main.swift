// A gift animation personalised as a live-streaming app does it: the viewer's name and
// avatar fused into a VAP file's text and image sources, written as PNGs with alpha.
//   example-vap-greeting gift.mp4 "Name" avatar.png out-dir
import Foundation
import ReelVAP

let arguments = CommandLine.arguments
guard arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: example-vap-greeting gift.mp4 NAME avatar.png out-dir\n".utf8))
    exit(2)
}
let (gift, name, avatar, directory) = (arguments[1], arguments[2], arguments[3], arguments[4])
do {
    // The file says which sources it fuses and by which tags ([sTxt1], [sImg1]…).
    let sources = try VAPFile(source: MP4FileSource(path: gift)).config?.sources ?? []
    var content = VAPFusionContent()
    for source in sources {
        switch source.kind {
        case .text: content.texts[source.tag] = name
        case .image: content.imageFiles[source.tag] = avatar
        }
    }
    let renderer = try VAPRenderer(path: gift, content: content, alpha: .straight)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var written = 0
    while let (index, picture) = try renderer.nextFrame() {
        try PNGWriter.write(picture.videoFrame(), to: "\(directory)/\(String(format: "%04d", index)).png")
        written += 1
    }
    print("\(written) frames of \(renderer.layout.outputWidth)x\(renderer.layout.outputHeight) with \(sources.count) fused sources in \(directory)")
} catch {
    FileHandle.standardError.write(Data("example-vap-greeting: \(error)\n".utf8))
    exit(1)
}
