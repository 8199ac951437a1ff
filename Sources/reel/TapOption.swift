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
    private var writers: [TapWriter] = []

    init(options: [TapOption], tap: FrameTap, every: Int) throws {
        for option in options {
            switch option {
            case .y4m(let path): writers.append(.y4m(tap: tap, path: path))
            case .png(let directory): writers.append(try .png(tap: tap, directory: directory, every: every))
            }
        }
    }

    /// Finishes every writer; the first error, if any.
    func finish(verbose: Bool) -> TapError? {
        for writer in writers {
            writer.stop()
            if verbose {
                FileHandle.standardError.write(Data("tap \(writer.destination): \(writer.framesWritten) frames, \(writer.framesDropped) dropped\n".utf8))
            } else if writer.framesDropped > 0 {
                FileHandle.standardError.write(Data("reel: tap \(writer.destination): \(writer.framesDropped) frames dropped (it took them slower than playback presented them)\n".utf8))
            }
        }
        return writers.lazy.compactMap(\.error).first
    }
}
