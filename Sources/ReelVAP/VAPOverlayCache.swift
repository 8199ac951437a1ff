import Foundation
import ReelCore

/// Gift frames already rendered, at the size they were drawn, shared by the gifts a player
/// starts (`reel play --overlay-cache 256M`): a popular gift asked for again while its
/// frames are kept is not decoded again (Tencent/vap#16). Bounded in bytes, the least
/// recently used frames out first.
public final class VAPOverlayCache: @unchecked Sendable {
    /// The bytes kept unless told otherwise.
    public static let defaultCapacity = 256 << 20

    /// A frame of one file's animation, fused with one content, at one size.
    struct Key: Hashable, Sendable {
        let animation: String
        let frame: Int
        let width: Int
        let height: Int
    }

    private let lock = NSLock()
    private var frames: ByteBoundedCache<Key, PixelBuffer>

    /// A cache of at most `capacity` bytes of frames.
    public init(capacity: Int = VAPOverlayCache.defaultCapacity) {
        frames = ByteBoundedCache(capacity: capacity)
    }

    /// The bytes of frames kept now.
    public var bytes: Int { lock.withLock { frames.bytes } }

    func frame(for key: Key) -> PixelBuffer? { lock.withLock { frames.value(for: key) } }

    func keep(_ picture: PixelBuffer, for key: Key) {
        lock.withLock { _ = frames.insert(picture, cost: picture.width * picture.height * 4, for: key) }
    }

    /// What names `path`'s animation fused with `content` in the cache: the file as it is
    /// now (its size and time of change, so that a file replaced is decoded afresh) and the
    /// content. Nil when the content cannot be named (pictures from a provider).
    static func animationKey(path: String, content: VAPFusionContent) -> String? {
        guard content.imageProvider == nil,
              let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.intValue, let changed = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 else { return nil }
        let texts = content.texts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let images = content.imageFiles.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return ([URL(fileURLWithPath: path).standardizedFileURL.path, "\(size)", "\(changed)", "\(content.fontSize ?? 0)"] + texts + images)
            .joined(separator: "\u{0}")
    }
}
