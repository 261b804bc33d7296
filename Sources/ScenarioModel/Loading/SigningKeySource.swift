/// Where a loader takes RSA-2048 private keys (PKCS#8 PEM) for `signing_keys` entries without a PEM,
/// instead of generating them itself: the key material is passed in. SIWACore's `SigningKeySupply`
/// (keys made ahead on a background thread) is the one the server uses.
package protocol SigningKeySource: Sendable {
    /// The most keys the source keeps ready (named in the error when a scenario needs more).
    var capacity: Int { get }

    /// A ready key's PEM; with `makingOneIfNoneReady` one generated on the calling thread when none is
    /// ready. Nil when none may be made, or generation failed.
    func take(makingOneIfNoneReady: Bool) -> String?
}
