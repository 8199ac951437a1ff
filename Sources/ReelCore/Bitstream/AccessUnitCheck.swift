extension VideoCodec {
    /// Whether an Annex B packet holds one whole access unit, as far as its NAL units tell:
    /// it begins with one (a unit that precedes pictures, or a picture's first slice, after
    /// nothing but zero bytes), and no second one begins after its slices.
    ///
    /// A packet cut short keeps its start; what it lacks shows in the packet after it,
    /// which then does not begin an access unit.
    public func holdsOneAccessUnit<Bytes: RandomAccessCollection<UInt8>>(annexB packet: Bytes) -> Bool where Bytes.Index == Int {
        var seenUnit = false
        var seenSlice = false
        var index = packet.startIndex
        let end = packet.endIndex
        while index + 2 < end {
            if packet[index + 2] > 1 { index += 3; continue }
            guard packet[index] == 0, packet[index + 1] == 0, packet[index + 2] == 1 else { index += 1; continue }
            if !seenUnit, packet[packet.startIndex..<index].contains(where: { $0 != 0 }) { return false }
            let unit = packet[(index + 3)...]
            index += 3
            guard let header = unit.first else { break }
            let type = nalType(header)
            let beginsAccessUnit = precedesPictures(nalType: type) || isFirstSliceOfPicture(unit)
            if !seenUnit {
                guard beginsAccessUnit else { return false }
                seenUnit = true
            } else if seenSlice && beginsAccessUnit {
                return false
            }
            if isSlice(nalType: type) { seenSlice = true }
        }
        return seenUnit
    }
}
