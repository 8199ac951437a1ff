import CSRTP
import Foundation
import ReelCore

/// Decrypts and authenticates SRTP and SRTCP packets (RFC 3711) with libsrtp2, for any
/// inbound SSRC, with the key and suite of an `a=crypto` line. Not thread-safe: one
/// receiving thread uses it.
final class SRTPSession: @unchecked Sendable {
    private var session: srtp_t?
    /// For the 32-bit suite: SRTCP with a 32-bit tag, as ffmpeg sends it (RFC 4568 says 80).
    private var shortTagControl: srtp_t?

    /// Why a packet was refused: a replayed one is a duplicate the sender or network made,
    /// anything else failed authentication or was malformed.
    enum Refusal: Error {
        case replayed
        case failed(Int32)
    }

    private static let initialized: Bool = srtp_init() == srtp_err_status_ok

    init(crypto: SDPCrypto) throws {
        guard Self.initialized else { throw RTPError("libsrtp2 could not be initialized") }
        session = try Self.create(crypto, shortControlTag: false)
        if crypto.suite == .aesCM128HMACSHA1_32 { shortTagControl = try Self.create(crypto, shortControlTag: true) }
    }

    private static func create(_ crypto: SDPCrypto, shortControlTag: Bool) throws -> srtp_t? {
        var policy = srtp_policy_t()
        switch crypto.suite {
        case .aesCM128HMACSHA1_80: srtp_crypto_policy_set_rtp_default(&policy.rtp)
        case .aesCM128HMACSHA1_32: srtp_crypto_policy_set_aes_cm_128_hmac_sha1_32(&policy.rtp)
        }
        if shortControlTag {
            srtp_crypto_policy_set_aes_cm_128_hmac_sha1_32(&policy.rtcp)
        } else {
            srtp_crypto_policy_set_rtcp_default(&policy.rtcp)
        }
        policy.ssrc.type = ssrc_any_inbound
        // A window as wide as the jitter buffer's reordering; libsrtp's default is 128.
        policy.window_size = 4096
        var key = crypto.keyAndSalt
        var session: srtp_t?
        let status = key.withUnsafeMutableBufferPointer { buffer -> srtp_err_status_t in
            policy.key = buffer.baseAddress
            return srtp_create(&session, &policy)
        }
        guard status == srtp_err_status_ok else { throw RTPError("libsrtp2 refused the key (status \(status.rawValue))") }
        return session
    }

    deinit {
        if let session { srtp_dealloc(session) }
        if let shortTagControl { srtp_dealloc(shortTagControl) }
    }

    /// The plain RTP (or RTCP) packet, tag and encryption removed.
    func unprotect(_ bytes: [UInt8], isRTCP: Bool) -> Result<[UInt8], Refusal> {
        let result = unprotect(bytes, isRTCP: isRTCP, with: session)
        if isRTCP, case .failure(.failed) = result, let shortTagControl { return unprotect(bytes, isRTCP: true, with: shortTagControl) }
        return result
    }

    private func unprotect(_ bytes: [UInt8], isRTCP: Bool, with session: srtp_t?) -> Result<[UInt8], Refusal> {
        var packet = bytes
        var length = Int32(packet.count)
        let status = packet.withUnsafeMutableBytes { buffer in
            isRTCP ? srtp_unprotect_rtcp(session, buffer.baseAddress, &length) : srtp_unprotect(session, buffer.baseAddress, &length)
        }
        switch status {
        case srtp_err_status_ok:
            packet.removeLast(packet.count - Int(max(0, min(length, Int32(packet.count)))))
            return .success(packet)
        case srtp_err_status_replay_fail, srtp_err_status_replay_old:
            return .failure(.replayed)
        default:
            return .failure(.failed(Int32(status.rawValue)))
        }
    }
}
