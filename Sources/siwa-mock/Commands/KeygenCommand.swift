import JOSE

/// `siwa-mock keygen`: a new P-256 key for client secrets, like the `.p8` Apple lets you download once.
struct KeygenCommand: Command {
    static let name = "keygen"
    static let abstract = "Write a new P-256 private key (.p8) and print its public PEM for a scenario."
    static let discussion: String? = """
        The private key is written with mode 0600 and never overwritten. Register the printed public key
        under a team's client-secret keys in a scenario, then sign client secrets with `client-secret`.
        """
    static let out = Option(
        "out", "file", help: "Where to write the private key.", default: "AuthKey.p8", parser: .nonEmpty)
    static let options: [OptionSpec] = [out.spec]

    var out: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        out = try arguments.read(Self.out)
    }

    func run() throws -> Int32 {
        let key = try P256PrivateKey.generate()
        try FileSystem.write(key.pemPKCS8(), to: out, mode: 0o600, exclusive: true)
        Console().out(key.publicKey.pem(), terminator: "")
        Console().err("Wrote private key to \(out)")
        return 0
    }
}
