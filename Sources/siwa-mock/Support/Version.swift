enum Version {
    static let number = "0.2.0"
    static let string = "siwa-mock \(number)"
}
