import Dispatch

extension PanoramaMap {
    /// Fills 8-bit `outputs` (this map's size) from 8-bit `sources` (the map's source
    /// size; a stereo source's eye is a plane view into its region), plane by plane in one
    /// pass over the map, rows split across `threads` threads. Planes of one size share a
    /// map (planar RGB, or Y alone); 4:2:0 chroma takes a map of its own size.
    public func remap(_ sources: [PixelPlane], into outputs: [PixelPlane], threads: Int = 1) {
        precondition(sources.count == outputs.count && !sources.isEmpty && sources.count <= 4, "one output per source, up to four")
        for source in sources { precondition(source.rowByteCount >= sourceWidth && source.rowCount >= sourceHeight, "source plane smaller than the map's source") }
        for output in outputs { precondition(output.rowByteCount >= width && output.rowCount >= height, "output plane smaller than the map") }
        let jobs = Self.chunks(rows: height, threads: threads)
        forEachChunk(jobs, threads: threads) { job in
            remapRows(chunkRange(job, of: jobs, count: height), sources, outputs)
        }
    }

    /// ``remap(_:into:threads:)`` for one plane.
    public func remap(_ source: PixelPlane, into output: PixelPlane, threads: Int = 1) {
        remap([source], into: [output], threads: threads)
    }

    /// The four offsets of output pixel `pixel`'s bilinear block, for a source of `stride`.
    @inline(__always)
    private func block(_ pixel: Int, _ offsets: UnsafeBufferPointer<Int32>, _ irregular: UnsafeBufferPointer<Int32>) -> (Int, Int, Int, Int) {
        let corner = Int(offsets[pixel])
        if corner >= 0 { return (corner, corner &+ 1, corner &+ sourceStride, corner &+ sourceStride &+ 1) }
        let k = (-corner - 1) &* 4
        return (Int(irregular[k]), Int(irregular[k &+ 1]), Int(irregular[k &+ 2]), Int(irregular[k &+ 3]))
    }

    private func remapRows(_ range: Range<Int>, _ sources: [PixelPlane], _ outputs: [PixelPlane]) {
        if sources.contains(where: { $0.bytesPerRow != sourceStride }) {
            // Planes of another stride: one at a time, offsets split back into rows and columns.
            for (source, output) in zip(sources, outputs) { remapRowsRestrided(range, source, output) }
            return
        }
        // Plane pointers as plain values: no arrays in the per-pixel loop.
        let planes = sources.count, stride = sourceStride
        let s0 = UnsafePointer<UInt8>(sources[0].row(0)), s1 = UnsafePointer<UInt8>(sources[min(1, planes - 1)].row(0))
        let s2 = UnsafePointer<UInt8>(sources[min(2, planes - 1)].row(0)), s3 = UnsafePointer<UInt8>(sources[min(3, planes - 1)].row(0))
        offsets.withUnsafeBufferPointer { offsets in
            irregular.withUnsafeBufferPointer { irregular in
                weights.withUnsafeBufferPointer { weights in
                    for y in range {
                        let d0 = outputs[0].row(y), d1 = outputs[min(1, planes - 1)].row(y)
                        let d2 = outputs[min(2, planes - 1)].row(y), d3 = outputs[min(3, planes - 1)].row(y)
                        let first = y &* width
                        if taps == 1 {
                            for x in 0..<width {
                                let offset = Int(offsets[first &+ x])
                                d0[x] = s0[offset]
                                if planes > 1 { d1[x] = s1[offset] }
                                if planes > 2 { d2[x] = s2[offset] }
                                if planes > 3 { d3[x] = s3[offset] }
                            }
                            continue
                        }
                        let packedWeights = UnsafeRawPointer(weights.baseAddress!)
                        for x in 0..<width {
                            let pixel = first &+ x
                            // The four weights in one load.
                            let four = packedWeights.loadUnaligned(fromByteOffset: pixel &* 8, as: UInt64.self)
                            let w0 = Int32(Int16(truncatingIfNeeded: four)), w1 = Int32(Int16(truncatingIfNeeded: four &>> 16))
                            let w2 = Int32(Int16(truncatingIfNeeded: four &>> 32)), w3 = Int32(Int16(truncatingIfNeeded: four &>> 48))
                            let corner = Int(offsets[pixel])
                            if corner >= 0 {
                                // The usual block: two 16-bit loads per plane. Weights are ≥ 0
                                // and sum to at most 16387, so the result needs no clamping.
                                @inline(__always) func blend(_ s: UnsafePointer<UInt8>) -> UInt8 {
                                    let top = UnsafeRawPointer(s + corner).loadUnaligned(as: UInt16.self)
                                    let bottom = UnsafeRawPointer(s + (corner &+ stride)).loadUnaligned(as: UInt16.self)
                                    let sum = w0 &* Int32(top & 0xFF) &+ w1 &* Int32(top &>> 8) &+ w2 &* Int32(bottom & 0xFF) &+ w3 &* Int32(bottom &>> 8)
                                    return UInt8(truncatingIfNeeded: sum &>> 14)
                                }
                                d0[x] = blend(s0)
                                if planes > 1 { d1[x] = blend(s1) }
                                if planes > 2 { d2[x] = blend(s2) }
                                if planes > 3 { d3[x] = blend(s3) }
                            } else {
                                let (o0, o1, o2, o3) = block(pixel, offsets, irregular)
                                @inline(__always) func blend(_ s: UnsafePointer<UInt8>) -> UInt8 {
                                    let sum = w0 &* Int32(s[o0]) &+ w1 &* Int32(s[o1]) &+ w2 &* Int32(s[o2]) &+ w3 &* Int32(s[o3])
                                    return UInt8(truncatingIfNeeded: min(max(sum &>> 14, 0), 255))
                                }
                                d0[x] = blend(s0)
                                if planes > 1 { d1[x] = blend(s1) }
                                if planes > 2 { d2[x] = blend(s2) }
                                if planes > 3 { d3[x] = blend(s3) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// A source whose stride is not the map's: offsets are split back into rows and columns.
    private func remapRowsRestrided(_ range: Range<Int>, _ source: PixelPlane, _ output: PixelPlane) {
        let base = UnsafePointer<UInt8>(source.row(0)), stride = source.bytesPerRow, mapStride = sourceStride
        @inline(__always) func sample(_ offset: Int) -> Int32 { Int32(base[(offset / mapStride) &* stride &+ offset % mapStride]) }
        offsets.withUnsafeBufferPointer { offsets in
            irregular.withUnsafeBufferPointer { irregular in
                weights.withUnsafeBufferPointer { weights in
                    for y in range {
                        let line = output.row(y)
                        for x in 0..<width {
                            let pixel = y &* width &+ x
                            if taps == 1 {
                                line[x] = UInt8(truncatingIfNeeded: sample(Int(offsets[pixel])))
                                continue
                            }
                            let (o0, o1, o2, o3) = block(pixel, offsets, irregular), w = pixel &* 4
                            let sum = Int32(weights[w]) &* sample(o0) &+ Int32(weights[w &+ 1]) &* sample(o1)
                                &+ Int32(weights[w &+ 2]) &* sample(o2) &+ Int32(weights[w &+ 3]) &* sample(o3)
                            line[x] = UInt8(truncatingIfNeeded: min(max(sum &>> 14, 0), 255))
                        }
                    }
                }
            }
        }
    }
}
