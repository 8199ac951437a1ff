/// A guided tour through a 360° video: keyframes of time → yaw, pitch and field of view,
/// passed through smoothly (Catmull-Rom between keyframes, held before the first and after
/// the last). Yaw takes the short way round between neighbouring keyframes.
///
/// JSON: `{"keyframes": [{"time": 0, "yaw": 0, "pitch": 0, "fov": 90}, …]}` or the array
/// alone; `pitch` and `fov` may be left out (0 and 90).
public struct CameraPath: Sendable, Equatable, Codable {
    /// Where the camera looks at one moment.
    public struct Keyframe: Sendable, Equatable, Codable {
        /// Seconds into the video.
        public var time: Double
        /// Degrees to the right.
        public var yaw: Float
        /// Degrees up.
        public var pitch: Float
        /// Horizontal field of view, degrees.
        public var fov: Float

        /// A keyframe; level and 90° wide unless told.
        public init(time: Double, yaw: Float, pitch: Float = 0, fov: Float = 90) {
            self.time = time
            self.yaw = yaw
            self.pitch = pitch
            self.fov = fov
        }

        enum CodingKeys: String, CodingKey { case time, yaw, pitch, fov }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            time = try container.decode(Double.self, forKey: .time)
            yaw = try container.decode(Float.self, forKey: .yaw)
            pitch = try container.decodeIfPresent(Float.self, forKey: .pitch) ?? 0
            fov = try container.decodeIfPresent(Float.self, forKey: .fov) ?? 90
        }
    }

    /// The keyframes, sorted by time, yaw unwrapped.
    public private(set) var keyframes: [Keyframe]

    /// Keyframes sorted by time; yaw unwrapped so that each step is at most half a turn.
    public init(keyframes: [Keyframe]) throws {
        guard !keyframes.isEmpty else { throw PathError("a path needs at least one keyframe") }
        var sorted = keyframes.sorted { $0.time < $1.time }
        for index in sorted.indices {
            let keyframe = sorted[index]
            guard keyframe.time.isFinite, keyframe.time >= 0 else { throw PathError("keyframe \(index): time must be 0 or more") }
            guard (-90...90).contains(keyframe.pitch) else { throw PathError("keyframe \(index): pitch must be between -90 and 90") }
            guard keyframe.fov > 0, keyframe.fov < 180 else { throw PathError("keyframe \(index): fov must be between 0 and 180") }
            guard keyframe.yaw.isFinite else { throw PathError("keyframe \(index): yaw must be a number") }
            // Within one turn first: a yaw of 1e37 degrees is an angle, but its difference to
            // the next one would not be a number.
            sorted[index].yaw = keyframe.yaw.truncatingRemainder(dividingBy: 360)
            if index > 0 {
                var delta = (sorted[index].yaw - sorted[index - 1].yaw).truncatingRemainder(dividingBy: 360)
                if delta > 180 { delta -= 360 } else if delta < -180 { delta += 360 }
                sorted[index].yaw = sorted[index - 1].yaw + delta
            }
        }
        for index in sorted.indices.dropFirst() where sorted[index].time == sorted[index - 1].time {
            throw PathError("two keyframes at \(sorted[index].time) s")
        }
        self.keyframes = sorted
    }

    public init(from decoder: Decoder) throws {
        if let keyframes = try? decoder.singleValueContainer().decode([Keyframe].self) {
            try self.init(keyframes: keyframes)
        } else {
            enum Keys: String, CodingKey { case keyframes }
            try self.init(keyframes: try decoder.container(keyedBy: Keys.self).decode([Keyframe].self, forKey: .keyframes))
        }
    }

    /// The view at `time` seconds (roll from `roll`).
    public func view(at time: Double, roll: Float = 0) -> PanoramaView {
        let values = interpolated(at: time)
        var yaw = values.yaw.truncatingRemainder(dividingBy: 360)
        if yaw > 180 { yaw -= 360 } else if yaw < -180 { yaw += 360 }
        return PanoramaView(yaw: yaw, pitch: min(max(values.pitch, -90), 90), roll: roll, horizontalFOV: min(max(values.fov, 1), 179))
    }

    private func interpolated(at time: Double) -> (yaw: Float, pitch: Float, fov: Float) {
        guard let first = keyframes.first, let last = keyframes.last else { return (0, 0, 90) }
        if time <= first.time { return (first.yaw, first.pitch, first.fov) }
        if time >= last.time { return (last.yaw, last.pitch, last.fov) }
        let next = keyframes.firstIndex { $0.time > time }!
        let k1 = keyframes[next - 1], k2 = keyframes[next]
        let k0 = next >= 2 ? keyframes[next - 2] : k1, k3 = next + 1 < keyframes.count ? keyframes[next + 1] : k2
        let t = Float((time - k1.time) / (k2.time - k1.time))
        func spline(_ p0: Float, _ p1: Float, _ p2: Float, _ p3: Float) -> Float {
            // Catmull-Rom: through p1 at t = 0 and p2 at t = 1, tangents from the neighbours.
            let t2 = t * t, t3 = t2 * t
            return 0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2 + (-p0 + 3 * p1 - 3 * p2 + p3) * t3)
        }
        return (spline(k0.yaw, k1.yaw, k2.yaw, k3.yaw), spline(k0.pitch, k1.pitch, k2.pitch, k3.pitch), spline(k0.fov, k1.fov, k2.fov, k3.fov))
    }

    /// Why a camera path cannot be read or made; the text says.
    public struct PathError: Error, CustomStringConvertible, Equatable {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
