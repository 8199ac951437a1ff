import Dispatch

extension EquirectangularMap {
    /// Fills an 8-bit `output` plane (this map's size) from an 8-bit `source` plane (the
    /// map's source size; a stereo source's eye is a plane view into its region), rows
    /// split across `threads` threads.
    public func remap(_ source: PixelPlane, into output: PixelPlane, threads: Int = 1) {
        precondition(source.rowByteCount >= sourceWidth && source.rowCount >= sourceHeight, "source plane smaller than the map's source")
        precondition(output.rowByteCount >= width && output.rowCount >= height, "output plane smaller than the map")
        let jobs = max(1, min(threads, height))
        if jobs == 1 {
            remapRows(0..<height, source, output)
        } else {
            DispatchQueue.concurrentPerform(iterations: jobs) { job in
                remapRows((height * job / jobs)..<(height * (job + 1) / jobs), source, output)
            }
        }
    }

    private func remapRows(_ range: Range<Int>, _ source: PixelPlane, _ output: PixelPlane) {
        let stride = source.bytesPerRow
        let base = UnsafePointer<UInt8>(source.row(0))
        columns.withUnsafeBufferPointer { columns in
            rows.withUnsafeBufferPointer { rows in
                weights.withUnsafeBufferPointer { weights in
                    for y in range {
                        let line = output.row(y)
                        var index = y * width * taps
                        if taps == 1 {
                            for x in 0..<width {
                                line[x] = base[Int(rows[index]) &* stride &+ Int(columns[index])]
                                index &+= 1
                            }
                        } else {
                            for x in 0..<width {
                                var sum: Int32 = 0
                                for tap in 0..<4 {
                                    let sample = base[Int(rows[index &+ tap]) &* stride &+ Int(columns[index &+ tap])]
                                    sum &+= Int32(weights[index &+ tap]) &* Int32(sample)
                                }
                                line[x] = UInt8(truncatingIfNeeded: min(max(sum &>> 14, 0), 255))
                                index &+= 4
                            }
                        }
                    }
                }
            }
        }
    }
}
