import Foundation

/// Every unsent draft of the process, in memory only.
///
/// Like the original input view, the store keeps two maps keyed by ``DraftKey``: one for
/// text (with the cursor) and one for attached media. An empty text or an empty media
/// list is never stored: saving it removes the entry. Nothing here is ever written to
/// disk; when the process ends, every draft is gone.
public struct DraftStore: Sendable {
    /// The clock that dates changes; tests may stop it.
    public var now: @Sendable () -> Date = { Date() }

    /// The unsent text of each input target that has some.
    public private(set) var texts: [DraftKey: TextDraft] = [:]
    /// The attached files of each input target that has some.
    public private(set) var media: [DraftKey: [Attachment]] = [:]
    /// When each target's draft last changed.
    public private(set) var updated: [DraftKey: Date] = [:]
    /// For a draft kept with a command attempt typed into an older one (a leave with the
    /// attempt in the line), that older text: the baseline the draft's line is still
    /// judged against when it comes back (SPEC §1a, "the line's baseline"), so the attempt
    /// is never sent. No other draft has one: its baseline is the draft itself.
    public private(set) var baselines: [DraftKey: TextDraft] = [:]

    public init() {}

    /// The number of input targets with a draft of either kind.
    public var count: Int { Set(texts.keys).union(media.keys).count }

    /// Whether no input target has a draft.
    public var isEmpty: Bool { texts.isEmpty && media.isEmpty }

    /// The keys of every draft, in key order.
    public var keys: [DraftKey] { Set(texts.keys).union(media.keys).sorted() }

    /// The text draft of a target, if it has one.
    public func text(for key: DraftKey) -> TextDraft? { texts[key] }

    /// The media draft of a target; empty when it has none.
    public func attachments(for key: DraftKey) -> [Attachment] { media[key] ?? [] }

    /// The baseline a target's draft text is judged against, when it is not the draft
    /// itself (``baselines``).
    public func baseline(for key: DraftKey) -> TextDraft? { baselines[key] }

    /// Whether a target has a draft of either kind.
    public func hasDraft(for key: DraftKey) -> Bool { texts[key] != nil || media[key] != nil }

    /// Saves the text left in the edit line; empty text removes the text entry. The draft's
    /// baseline is `baseline` (``baselines``): `nil`, the draft itself.
    ///
    /// Returns what the store did, for the trace.
    @discardableResult
    public mutating func saveText(_ draft: TextDraft, for key: DraftKey, baseline: TextDraft? = nil) -> Change {
        defer { touch(key) }
        baselines[key] = draft.text.isEmpty ? nil : baseline
        if draft.text.isEmpty {
            return texts.removeValue(forKey: key) == nil ? .none : .removed
        }
        texts[key] = draft
        return .saved
    }

    /// Saves a media list; an empty list removes the media entry.
    @discardableResult
    public mutating func saveAttachments(_ attachments: [Attachment], for key: DraftKey) -> Change {
        defer { touch(key) }
        if attachments.isEmpty {
            return media.removeValue(forKey: key) == nil ? .none : .removed
        }
        media[key] = attachments
        return .saved
    }

    /// Removes both entries of a target and returns what they held, so that a failed send
    /// can put them back with ``restore(_:for:)``.
    @discardableResult
    public mutating func remove(_ key: DraftKey) -> Removed {
        defer { touch(key) }
        baselines.removeValue(forKey: key)
        return Removed(text: texts.removeValue(forKey: key), attachments: media.removeValue(forKey: key) ?? [])
    }

    /// Puts back what ``remove(_:)`` took, its text judged against `baseline` (``baselines``).
    public mutating func restore(_ removed: Removed, for key: DraftKey, baseline: TextDraft? = nil) {
        if let text = removed.text { saveText(text, for: key, baseline: baseline) }
        saveAttachments(removed.attachments, for: key)
    }

    /// Forgets every draft, as quitting does. Returns the keys that had one.
    @discardableResult
    public mutating func removeAll() -> [DraftKey] {
        let gone = keys
        texts.removeAll()
        media.removeAll()
        updated.removeAll()
        baselines.removeAll()
        return gone
    }

    private mutating func touch(_ key: DraftKey) {
        if texts[key] == nil && media[key] == nil {
            updated.removeValue(forKey: key)
        } else {
            updated[key] = now()
        }
    }

    /// What a save did to the store.
    public enum Change: Equatable, Sendable {
        /// An entry was stored or replaced.
        case saved
        /// An entry was removed because the new value was empty.
        case removed
        /// Nothing changed: an empty value where there was no entry.
        case none
    }

    /// What ``remove(_:)`` took out of the store.
    public struct Removed: Equatable, Sendable {
        public var text: TextDraft?
        public var attachments: [Attachment]

        public init(text: TextDraft? = nil, attachments: [Attachment] = []) {
            self.text = text
            self.attachments = attachments
        }

        /// Whether there was nothing to remove.
        public var isEmpty: Bool { text == nil && attachments.isEmpty }
    }
}
