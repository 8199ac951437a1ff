import Foundation
import ReelCore
#if canImport(Glibc)
import Glibc
#endif

/// Thumbnails for a pointer over a seek bar, made on a low-priority thread of their own
/// so that playback keeps its cores: the newest time asked for wins (one being made is
/// finished, the times in between are skipped), and a keyframe made once is not decoded
/// again (``ThumbnailMaker``).
public final class ThumbnailPreview: @unchecked Sendable {
    /// The input the thumbnails are of.
    public let url: String
    private let condition = NSCondition()
    private var wanted: Double?
    private var shown: (asked: Double, thumbnail: Thumbnail)?
    private var made = 0
    private var closed = false
    private var failure: String?

    /// Starts a thread that opens `url` for thumbnails `width`×`height`.
    public init(url: String, width: Int, height: Int) {
        self.url = url
        Thread.detachNewThread { [self] in work(width: width, height: height) }
    }

    /// Asks for the thumbnail at `seconds`; returns at once.
    public func request(_ seconds: Double) {
        condition.withLock {
            wanted = seconds
            condition.signal()
        }
    }

    /// The newest thumbnail made, with the time it was asked for; nil before the first.
    public var latest: (asked: Double, thumbnail: Thumbnail)? { condition.withLock { shown } }

    /// How many thumbnails were handed out so far: a change means something new to draw.
    public var madeCount: Int { condition.withLock { made } }

    /// Why no thumbnail can be made (the input could not be opened), if so.
    public var error: String? { condition.withLock { failure } }

    /// Ends the thread once the thumbnail being made is done.
    public func close() {
        condition.withLock {
            closed = true
            condition.signal()
        }
    }

    private func work(width: Int, height: Int) {
        // Linux gives each thread its own nice value: this one yields to playback.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 15)
        let maker: ThumbnailMaker
        do {
            maker = try ThumbnailMaker(url: url, width: width, height: height)
        } catch {
            condition.withLock { failure = "\(error)" }
            return
        }
        while true {
            let asked: Double? = condition.withLock {
                while wanted == nil && !closed { condition.wait() }
                defer { wanted = nil }
                return closed ? nil : wanted
            }
            guard let asked else { return }
            guard let thumbnail = try? maker.thumbnail(at: asked) else { continue }
            condition.withLock {
                shown = (asked, thumbnail)
                made += 1
            }
        }
    }
}
