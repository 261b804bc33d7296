extension HeadParser {
    /// The field name as sent. Common names spelt the usual way come from literals (no copy or check of
    /// the bytes beyond one comparison); any other spelling is decoded as is, so the case sent is kept.
    static func fieldName(_ name: UnsafeBufferPointer<UInt8>) -> String {
        switch name.count {
        case 4:
            if ASCII.equals(name, "Host") { return "Host" }
            if ASCII.equals(name, "host") { return "host" }
        case 6:
            if ASCII.equals(name, "Accept") { return "Accept" }
            if ASCII.equals(name, "Cookie") { return "Cookie" }
            if ASCII.equals(name, "Origin") { return "Origin" }
        case 7:
            if ASCII.equals(name, "Referer") { return "Referer" }
        case 10:
            if ASCII.equals(name, "User-Agent") { return "User-Agent" }
            if ASCII.equals(name, "Connection") { return "Connection" }
        case 12:
            if ASCII.equals(name, "Content-Type") { return "Content-Type" }
        case 13:
            if ASCII.equals(name, "Authorization") { return "Authorization" }
        case 14:
            if ASCII.equals(name, "Content-Length") { return "Content-Length" }
        case 15:
            if ASCII.equals(name, "Accept-Encoding") { return "Accept-Encoding" }
            if ASCII.equals(name, "Accept-Language") { return "Accept-Language" }
        default:
            break
        }
        return ASCII.string(name)
    }
}
