/// Where a camera wall (`Wall`) shows its picture: a window, or nothing (headless). Called on the
/// wall's own thread only: the output is made there, as SDL wants its window used from the
/// thread that made it.
public protocol WallOutput: AnyObject {
    /// Shows the wall's picture now.
    func present(_ frame: VideoFrame)
    /// What the viewer asked for since the last call (about every 10 ms).
    func input() -> [WallInput]
    /// Releases the output (closes the window); called once.
    func close()
    /// False when ``input()`` never has anything (no window): the wall then waits for its
    /// tiles' pictures rather than looking every 10 ms.
    var takesInput: Bool { get }
}

extension WallOutput {
    public var takesInput: Bool { true }
}

/// A wall shown nowhere: its pictures go only to its frame tap.
public final class HeadlessWallOutput: WallOutput {
    /// An output that shows nothing and asks for nothing.
    public init() {}
    public func present(_ frame: VideoFrame) {}
    public func input() -> [WallInput] { [] }
    public func close() {}
    public var takesInput: Bool { false }
}
