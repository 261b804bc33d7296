enum Version {
    static let number = "0.1.0"
    static let string = "siwa-mock \(number)"
}
