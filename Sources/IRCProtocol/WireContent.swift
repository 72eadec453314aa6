/// What one PRIVMSG line carries for draftline: text, a location as a `geo:` URI, or the
/// name of an attached file (the file itself does not travel).
public enum WireContent: Equatable, Sendable {
    case text(String)
    /// `geo:52.520008,13.404954 Alexanderplatz`: RFC 5870's URI, then the address.
    case location(latitude: Double, longitude: Double, address: String)
    /// `attachment: photo.jpg (file not sent)`.
    case attachment(name: String)

    static let attachmentPrefix = "attachment: "
    static let attachmentSuffix = " (file not sent)"

    /// The text to send.
    public var line: String {
        switch self {
        case .text(let text): return text
        case .location(let latitude, let longitude, let address):
            let uri = "geo:\(Self.fixed(latitude)),\(Self.fixed(longitude))"
            let flat = Self.flattened(address)
            return flat.isEmpty ? uri : uri + " " + flat
        case .attachment(let name): return Self.attachmentPrefix + Self.flattened(name) + Self.attachmentSuffix
        }
    }

    /// Reads a received line: a `geo:` URI with a latitude and a longitude in range is a
    /// location, the attachment form an attachment, anything else text.
    public init(line: String) {
        if let location = Self.location(line) {
            self = location
        } else if line.hasPrefix(Self.attachmentPrefix), line.hasSuffix(Self.attachmentSuffix),
            line.utf8.count > Self.attachmentPrefix.utf8.count + Self.attachmentSuffix.utf8.count
        {
            self = .attachment(
                name: String(line.dropFirst(Self.attachmentPrefix.count).dropLast(Self.attachmentSuffix.count)))
        } else {
            self = .text(line)
        }
    }

    private static func location(_ line: String) -> WireContent? {
        guard line.hasPrefix("geo:") else { return nil }
        let body = line.dropFirst(4)
        let uriEnd = body.firstIndex(of: " ") ?? body.endIndex
        let uri = body[..<uriEnd].split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let numbers = uri.split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 2 || numbers.count == 3, let latitude = decimal(numbers[0]),
            let longitude = decimal(numbers[1]), (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        let address = uriEnd < body.endIndex ? String(body[body.index(after: uriEnd)...]) : ""
        return .location(latitude: latitude, longitude: longitude, address: address)
    }

    /// A plain decimal number (`-52.5`, `13`): no exponent, no `inf` or `nan`.
    private static func decimal(_ text: Substring) -> Double? {
        var digits = text
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !parts[0].isEmpty, parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            parts.count == 1 || !parts[1].isEmpty
        else { return nil }
        return Double(text)
    }

    /// A number with six decimals, never in exponent form (`1e-05` is no geo URI).
    static func fixed(_ value: Double) -> String {
        let scaled = (abs(value) * 1_000_000).rounded()
        let whole = Int(scaled / 1_000_000)
        let fraction = String(Int(scaled) % 1_000_000)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return "\(sign)\(whole)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// Text on one line: CR and LF as spaces.
    private static func flattened(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
    }
}
