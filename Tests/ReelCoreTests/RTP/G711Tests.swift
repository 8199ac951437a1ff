import Testing
import ReelCore

/// G.711's codes (FFmpeg's encoders are the byte-for-byte oracle, in the integration suite).
@Suite struct G711Tests {
    @Test func silenceAndTheExtremes() {
        #expect(G711.muLaw(0) == 0xFF && G711.aLaw(0) == 0xD5)
        #expect(G711.muLaw(32767) == 0x80 && G711.muLaw(-32768) == 0x00)
        #expect(G711.aLaw(32767) == 0xAA && G711.aLaw(-32768) == 0x2A)
    }

    /// Each code comes back from the value it stands for (μ-law's two zeros come back as
    /// the positive one), and louder samples never get quieter codes.
    @Test func codesComeBackFromTheirValuesAndKeepTheOrder() {
        for code in UInt8.min...UInt8.max {
            let muValue = Int16(clamping: G711.linear(muLaw: code)), aValue = Int16(clamping: G711.linear(aLaw: code))
            #expect(G711.muLaw(muValue) == (code == 0x7F ? 0xFF : code), "μ-law \(code)")
            #expect(G711.aLaw(aValue) == code, "A-law \(code)")
        }
        var previous = (mu: Int.min, a: Int.min)
        for sample in stride(from: Int(Int16.min), through: Int(Int16.max), by: 7) {
            let mu = G711.linear(muLaw: G711.muLaw(Int16(sample))), a = G711.linear(aLaw: G711.aLaw(Int16(sample)))
            #expect(mu >= previous.mu && a >= previous.a, "at \(sample)")
            previous = (mu, a)
        }
    }
}
