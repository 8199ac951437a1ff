import Foundation
import Reel

/// `--tap KIND:PATH`: where presented frames go besides the screen.
enum TapOption: Equatable {
    case y4m(path: String)
    case png(directory: String)

    init?(parsing text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let kind = text[..<colon], path = String(text[text.index(after: colon)...])
        guard !path.isEmpty else { return nil }
        switch kind {
        case "y4m": self = .y4m(path: path)
        case "png": self = .png(directory: path)
        default: return nil
        }
    }
}

/// The writers behind the `--tap` options of one playback.
final class TapWriters {
    private var stops: [(name: String, stop: () -> TapError?, summary: () -> String)] = []

    init(options: [TapOption], tap: FrameTap, every: Int) throws {
        for option in options {
            switch option {
            case .y4m(let path):
                let writer = Y4MTapWriter(tap: tap, path: path)
                stops.append((path, { writer.stop(); return writer.error },
                              { "\(writer.framesWritten) frames, \(writer.framesDropped) dropped" }))
            case .png(let directory):
                let writer = try PNGTapWriter(tap: tap, directory: directory, every: every)
                stops.append((directory, { writer.stop(); return writer.error },
                              { "\(writer.framesWritten) frames, \(writer.framesDropped) dropped" }))
            }
        }
    }

    /// Finishes every writer; the first error, if any.
    func finish(verbose: Bool) -> TapError? {
        var firstError: TapError?
        for writer in stops {
            let error = writer.stop()
            firstError = firstError ?? error
            if verbose { FileHandle.standardError.write(Data("tap \(writer.name): \(writer.summary())\n".utf8)) }
        }
        return firstError
    }
}
