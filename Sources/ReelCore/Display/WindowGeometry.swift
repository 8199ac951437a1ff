/// Where a window opens and how large, as mpv's `--geometry` says it: `W`, `WxH`, `xH`,
/// `W%`, `WxH%`, each optionally followed by a position `+X+Y` (from the top left) or
/// `-X-Y` (from the bottom right), or a position alone. Percentages are of the screen.
public struct WindowGeometry: Sendable, Hashable {
    /// A length in pixels or in percent of the screen's.
    public enum Length: Sendable, Hashable {
        /// Pixels.
        case pixels(Int)
        /// Percent of the screen's side, 0 to 100.
        case percent(Double)

        /// The length on a screen side of `screen` pixels.
        public func resolved(screen: Int) -> Int {
            switch self {
            case .pixels(let value): value
            case .percent(let value): Int((Double(screen) * value / 100).rounded())
            }
        }
    }

    /// An offset from one edge of the screen.
    public struct Offset: Sendable, Hashable {
        /// Pixels (or percent) from the edge.
        public var distance: Length
        /// From the right or bottom edge (`-X`), else from the left or top.
        public var fromFarEdge: Bool
    }

    /// The width, if given.
    public var width: Length?
    /// The height, if given.
    public var height: Length?
    /// The horizontal position, if given.
    public var x: Offset?
    /// The vertical position, if given.
    public var y: Offset?

    /// Largest side accepted, pixels.
    public static let maxSide = 16_384

    /// Reads mpv's geometry syntax; nil when the text is not geometry.
    public init?(parsing text: String) {
        var rest = Substring(text)
        func length() -> Length?? {
            let digits = rest.prefix { $0.isNumber || $0 == "." }
            guard !digits.isEmpty else { return .some(nil) }
            rest = rest.dropFirst(digits.count)
            let isPercent = rest.first == "%"
            if isPercent { rest = rest.dropFirst() }
            guard let value = Double(digits), value.isFinite else { return nil }
            if isPercent { return (0...100).contains(value) ? .percent(value) : nil }
            guard let whole = Int(digits), whole <= Self.maxSide else { return nil }
            return .pixels(whole)
        }
        guard let width = length() else { return nil }
        self.width = width
        if rest.first == "x" {
            rest = rest.dropFirst()
            guard let height = length(), height != nil else { return nil }
            self.height = height
        }
        if let sign = rest.first, sign == "+" || sign == "-" {
            var offsets: [Offset] = []
            while let sign = rest.first, sign == "+" || sign == "-", offsets.count < 2 {
                rest = rest.dropFirst()
                guard let distance = length(), let distance else { return nil }
                offsets.append(Offset(distance: distance, fromFarEdge: sign == "-"))
            }
            guard offsets.count == 2 else { return nil }
            x = offsets[0]
            y = offsets[1]
        }
        guard rest.isEmpty, self.width != nil || self.height != nil || x != nil else { return nil }
        if case .pixels(let w)? = self.width, w == 0 { return nil }
        if case .pixels(let h)? = self.height, h == 0 { return nil }
    }

    /// The window's size for a picture shown at `natural` size: a given side wins, a
    /// missing one follows the picture's shape.
    public func size(natural: (width: Int, height: Int), screen: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let aspect = Double(natural.width) / Double(max(natural.height, 1))
        switch (width?.resolved(screen: screen.width), height?.resolved(screen: screen.height)) {
        case let (w?, h?): return (max(w, 1), max(h, 1))
        case let (w?, nil): return (max(w, 1), max(Int((Double(w) / aspect).rounded()), 1))
        case let (nil, h?): return (max(Int((Double(h) * aspect).rounded()), 1), max(h, 1))
        case (nil, nil): return natural
        }
    }

    /// The window's top-left corner for a window of `size`, if a position was given.
    public func origin(size: (width: Int, height: Int), screen: (width: Int, height: Int)) -> (x: Int, y: Int)? {
        guard let x, let y else { return nil }
        let left = x.distance.resolved(screen: screen.width), top = y.distance.resolved(screen: screen.height)
        return (x.fromFarEdge ? screen.width - size.width - left : left,
                y.fromFarEdge ? screen.height - size.height - top : top)
    }
}
