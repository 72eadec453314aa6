import DraftKit
import ProgramDriver

/// Makes realistic, reproducible chat messages: Chinese text with emoji and punctuation,
/// 40 to 120 characters each.
struct MessageGenerator {
    private var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    private static let emoji: [Character] = ["😀", "😂", "👍", "🎉", "❤️", "🙏", "😅", "🔥", "👩‍💻", "🇨🇳"]
    private static let punctuation: [Character] = ["，", "。", "！", "？", " ", "、"]

    mutating func content() -> String {
        let length = Int.random(in: 40...120, using: &random)
        var text = ""
        text.reserveCapacity(length * 3)
        for _ in 0..<length {
            switch Int.random(in: 0..<20, using: &random) {
            case 0: text.append(Self.emoji.randomElement(using: &random)!)
            case 1, 2: text.append(Self.punctuation.randomElement(using: &random)!)
            default: text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: 0x4E00...0x9FA5, using: &random))!)
            }
        }
        return text
    }

    mutating func message(chat: String, number: Int) -> Message {
        Message(
            chatID: chat, messageID: "\(1_700_000_000_000 + number)-\(number)", content: content(), target: chat,
            mineHead: "me", otherHead: chat, type: "text")
    }
}
