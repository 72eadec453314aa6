/// What a draft holds, text and attachments: taken out by a send, put on the undo stack,
/// or as a ``DraftEvent`` saw it.
public struct DraftContents: Equatable, Sendable {
    public var text: TextDraft?
    public var attachments: [Attachment]

    public init(text: TextDraft? = nil, attachments: [Attachment] = []) {
        self.text = text
        self.attachments = attachments
    }

    /// Whether it holds nothing.
    public var isEmpty: Bool { text == nil && attachments.isEmpty }
}
