/// Test keys generated once with the `openssl` CLI for these tests only (never used elsewhere).
enum PEMFixtures {
    /// A 2048-bit RSA key in PKCS#1 (`RSA PRIVATE KEY`) form, made with `openssl genrsa -traditional`.
    static let rsaPKCS1 = """
        -----BEGIN RSA PRIVATE KEY-----
        MIIEogIBAAKCAQEA0I/5t+Hyhsb8qoxolPFt9WN6KvPEBt3hpZR7HnZptnkr9pb5
        B0iETlYHk92gDcKvMuXNB6JFT7qdoI1Yt6/SuWe500mVVKCVEfm3MMIQzj2A/D5T
        2EOfqSATEy77jKconvqyni40wmS+kkf/TPG3gqRzHtUDh3YK0NmYCEkMNmzKiyHp
        bJvM8zVHa8yvIkENDZyfDoY3bYWKsSk+44FnOWkro5nGGWXYBdpefnFdM9ikHhcQ
        Ozs9i+1mMmmfLA4Bx5FqtcAVuioYIemyu2OiwjQ4k6ZoqNplv1/FJ8TKz1XUFPp9
        ehwts7PamMuo/rQuLZm0c7xFf+ebp4ml+imY1QIDAQABAoIBAGAFeWYkm8FbieaH
        gHracNKiexOdaWnz67iNFOYghGkjfo8oUPz+cROT3idAyTisonbfgDb8ica8V2gc
        y3S+eVktHUveu+bbi+ZbvvCu2IfrnyADHh0afT6jasTRQ7UtHLGdIHFdOqMpOOgm
        R69INkHqrqnKTramLTKci7d80ieXtyDEGGzgOqeYZukn1DRDsDVjeX+M3pGAdp8I
        d/wUSbqyAFfqP90QHu417G1P/J3MCRSK1OTSW/Vzgz4cUV+4A8QejaRZKWTuysxs
        fMlF5XSsm9dHIIVyUNmPAMPk2oI82yI1mqUEuJ8OkLxrUq/33hTcGCuUfHB1/k11
        u2OAwD0CgYEA/oycnhOWSmyIeVTxTwY+JSb9AkJNzlKzQm15HsotKeNM0IROSkKa
        nFbVIJUjMmFg9Ce+m8XvbCCd5LuStafo+G7VmLzBVMakpYWYJa/xtrbcnHrIAWaM
        hSYWVMNAGjYgfPeOFhY85y2kxvTuRRaPnT07PWCzxnqgnu7Kri4paPsCgYEA0cBE
        ySeeqEqqEZp8eWropIIyPa/0pzDFMsK9wE4q6eaelTCzKBY5Mxg6dYh6T+9M7U7h
        jP1TEvZ8GjQlthMuE6durGvmr4YC7zGdwZCx/6NxDwCe37Lim0G8zqfAgo2FsWWe
        lyKU4Peap8uA4kVmEufIAsoyjZ9rFyE5AB46/G8CgYBDhjdxs451ta7KSN8ucGCB
        6ILLW51aMxP8dh/gLA+pAfP5iG9gQaTT/jDRUN6iWbSnb/efSPWHQGvCJoP3jlA9
        vuEIgGHkxEEe63592NuM9Zs2I1f1DygNlhnsaFMT4PHjVKQrdcC4LqJ8aLLgPujf
        9ENHt+RYrWT4ZC394J75iwKBgEslz38iKr2wwm28I4x8uQz3eHiRad3co0oka0dS
        uh1C+t4IrKdYDvY3X/psAyZQXgdHk5enyvOoS543wKsTBBcWjZhIsEWChdqctCB9
        bshgDkmJt2H9/SIS00pW36nmelesSL1tLlnLXCVxy6NFqeRsFkSpnKMQ0pVe2cUp
        D4kRAoGABLOCVxOi5gvyV0USHIi8LEYcOYgxnsdBW20jHX9pGZ6FF6tayZ5E0F8+
        sJYkreBVGqXip3Cd3TtkknuQYm0ObPGui+HzBC1zQsCsaoCimB6mgS3RuhuWxTFM
        bd5QG9l9kxz2FLIyBEOHxMGXoOVOksB+iqQ1Q5ONTWrLu7jej4w=
        -----END RSA PRIVATE KEY-----
        """

    /// The SubjectPublicKeyInfo of ``rsaPKCS1``.
    static let rsaPublic = """
        -----BEGIN PUBLIC KEY-----
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA0I/5t+Hyhsb8qoxolPFt
        9WN6KvPEBt3hpZR7HnZptnkr9pb5B0iETlYHk92gDcKvMuXNB6JFT7qdoI1Yt6/S
        uWe500mVVKCVEfm3MMIQzj2A/D5T2EOfqSATEy77jKconvqyni40wmS+kkf/TPG3
        gqRzHtUDh3YK0NmYCEkMNmzKiyHpbJvM8zVHa8yvIkENDZyfDoY3bYWKsSk+44Fn
        OWkro5nGGWXYBdpefnFdM9ikHhcQOzs9i+1mMmmfLA4Bx5FqtcAVuioYIemyu2Oi
        wjQ4k6ZoqNplv1/FJ8TKz1XUFPp9ehwts7PamMuo/rQuLZm0c7xFf+ebp4ml+imY
        1QIDAQAB
        -----END PUBLIC KEY-----
        """

    /// A 1024-bit RSA key: too small for RS256.
    static let rsa1024 = """
        -----BEGIN PRIVATE KEY-----
        MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBAKodIy6kcfJjvoMd
        6ehx+sSf+LD0LvS550XJRcZ/SAE7nM4d0ignNr9DauxEy8/XngDDOz7LHmEg/GSo
        TGxyLl4oWdbOWvXMVaADhGMaS7jBsyimUaJ5cEYtHmUYOVyyy4gfcorlepQT2Y2W
        TYQouMtQCf+1wy4vmAZ1U9NDi3DpAgMBAAECgYAfwMqVZTqjvPyNquLDcasWUqnw
        FdRB+AV0YEp278E4AbGWQ7i7p/4vG1109q54gE3M5KRFZ1KnXKnf/A4v2+xNdxlI
        qkuaArakrqNRgQq4vDZt/v/mge+6/MBXgAh7utxSIT42w9PLSWEIjtwDXB/kOKQn
        eS0DKgYmtMN5U9XI0QJBANZyuOCTYwYol+x6NiYjDWVnO4HfvyNubSVfZyNQzMzi
        JqW4VkgX5ms+r6h10KN4AVuEIXODdvSCKLIUTNh2vwUCQQDLE0x6ski/rMMBC6M0
        ZmigLintIxD7LdaCSaYo+aS787Kub27lR2h4Z0MiYNoreJKyXWSabNPGQ6kB67Xl
        KqeVAkBVXvJupP4k84AXqkdoQ0gP+FreRx6mkk1tNV+v1XjSj61nB82BgdI/G4N+
        gvh+O0X/EsjmXY27pR1iV2aIPi2pAkEAg3TitSpj3XBAa5TU+T6xy78WdOOWQoLR
        sVVrsmqoMOL4b+LCrrki744o70Ay+qD6lWvPjAeWr2ltJkknXknWYQJAI9RPVO1L
        wH9xk6rG+GfyKv3P39w4clOBkc/K54v4fEHg864EmBsENuMaxc7lJ84u70OUKAXf
        PEQuLwe+WQbJew==
        -----END PRIVATE KEY-----
        """

    /// A P-256 key in SEC1 (`EC PRIVATE KEY`) form.
    static let p256SEC1 = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIHep6F734Iimam2BXaHatouxZGPQl72a0tJ24+WxnypBoAoGCCqGSM49
        AwEHoUQDQgAEbyfOZdfBzw9SOPrHjmrjosBBdDXq5gN/V0wMlAbWwfZo/f+Bzt/x
        RqdV7nSo54aJ08rjXwj6aJG1/kNCKSpVmg==
        -----END EC PRIVATE KEY-----
        """

    /// The SubjectPublicKeyInfo of ``p256SEC1``.
    static let p256Public = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEbyfOZdfBzw9SOPrHjmrjosBBdDXq
        5gN/V0wMlAbWwfZo/f+Bzt/xRqdV7nSo54aJ08rjXwj6aJG1/kNCKSpVmg==
        -----END PUBLIC KEY-----
        """

    /// A P-384 key (PKCS#8): the wrong curve for ES256.
    static let p384 = """
        -----BEGIN PRIVATE KEY-----
        MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDCKLxTm2os50KUu6o/b
        N+mqqI7jJqPhF00egDEGCq9MpqRkth0oGv9j4kv7fF3kaaGhZANiAAR1JdBrYc6I
        ZC/eZC541mucQcgp6aXqAMAHMD3OYvTHEhzQWYRQK9Hbg4ohe/3YlaHVpgIksXLZ
        Sp5t6nOV2qS+i/6bqhrVzxT6QBwvWLH+XY7b9EN1b8IfP8MP8JHQIkA=
        -----END PRIVATE KEY-----
        """

    /// The SubjectPublicKeyInfo of ``p384``.
    static let p384Public = """
        -----BEGIN PUBLIC KEY-----
        MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEdSXQa2HOiGQv3mQueNZrnEHIKeml6gDA
        BzA9zmL0xxIc0FmEUCvR24OKIXv92JWh1aYCJLFy2Uqebepzldqkvov+m6oa1c8U
        +kAcL1ix/l2O2/RDdW/CHz/DD/CR0CJA
        -----END PUBLIC KEY-----
        """

    /// An Ed25519 key (PKCS#8): neither RSA nor EC.
    static let ed25519 = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIHXEptPiqR3dBd2+epY7phHDvFvBTssuktTKxxFdqydR
        -----END PRIVATE KEY-----
        """

    /// A P-256 key encrypted with the password "secret" (PKCS#8 `ENCRYPTED PRIVATE KEY`, AES-256-CBC).
    static let p256EncryptedPKCS8 = """
        -----BEGIN ENCRYPTED PRIVATE KEY-----
        MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAil8JrcCQHkXgICCAAw
        DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEELdEcAFYrK/YxGc4fR7+RxYEgZDr
        0ZTVi2zH/bgJXhJKGCL4SwrZqf0CRoZwbCsLGF2Ok7//TNI+FITuFWaHnyI2AKdz
        pnuFScfNWQJzHJTW+VYOIwjDAuRTgs+kRJ9IbymaEigK/nViDnOPJIDOZGFPl3hq
        2Fv9Cpb8u2V4mRUu6oUKkDWo/cHTbHiIXPOmqn1p/XbJOvUoz9tfDrGy6MyHBoU=
        -----END ENCRYPTED PRIVATE KEY-----
        """

    /// The same kind of key encrypted the traditional way (`Proc-Type: 4,ENCRYPTED` SEC1 PEM).
    static let p256EncryptedSEC1 = """
        -----BEGIN EC PRIVATE KEY-----
        Proc-Type: 4,ENCRYPTED
        DEK-Info: AES-256-CBC,EA9BD6E571B4FA5B4829EF54DBD1185C

        Pk9tp+DUWxkxCU7d/F3C1i2OQTEfJaD70Qw7ImfVfzDJpi5KStMwEDBJ7+IbhD/a
        GX5XOC8YB6DCLI+Uk7JQOMfTYIStK9gEyUBmsRYYQ9lvG7NeP4dFyFvjhP4FrOgy
        s7n7kOan1YS8wj8tRfqBff1lYq/nz0VO5pnixAwFztM=
        -----END EC PRIVATE KEY-----
        """
}
