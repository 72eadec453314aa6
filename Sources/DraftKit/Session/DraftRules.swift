import Foundation

/// The draft rules, after the original input view: what leaving, entering, sending,
/// discarding and undoing do to the drafts.
///
/// - leaving a target saves the edit buffer as its draft; empty text removes it (and the
///   text goes on the undo stack);
/// - entering a target restores its draft into the edit line;
/// - a send removes the draft first; what a failed write did not store is put back;
/// - a blank line clears the draft and sends nothing (the text goes on the undo stack);
/// - a sent line that does not hold the draft's characters in order (a line recalled
///   from history, not the draft typed into) puts the draft on the undo stack;
/// - an abandoned line (Ctrl-C) goes on the undo stack, and the draft with it;
/// - `/undo` brings back the last draft discarded, emptied or cleared, and never
///   overwrites silently: a newer draft in its place goes on the stack;
/// - quitting forgets every draft.
///
/// Every change returns the ``DraftEvent``s it made.
public struct DraftRules: Sendable {
    /// A draft that was discarded, emptied or cleared, waiting for `/undo`.
    public struct Lost: Equatable, Sendable {
        public var key: DraftKey
        public var draft: DraftStore.Removed
    }

    /// Every unsent draft.
    public private(set) var drafts = DraftStore()
    /// The undo stack, most recent last.
    public private(set) var undoStack: [Lost] = []

    /// How many lost drafts `/undo` can bring back.
    public static let undoDepth = 20

    /// Makes the rules with a clock that dates every change.
    public init(clock: @escaping @Sendable () -> Date) {
        drafts.now = clock
    }

    /// What a target's draft is now.
    public func snapshot(_ key: DraftKey) -> DraftStore.Removed {
        DraftStore.Removed(text: drafts.text(for: key), attachments: drafts.attachments(for: key))
    }

    /// Leaving `target` with this edit buffer.
    public mutating func leave(_ target: InputTarget, with buffer: TextDraft, via key: LeaveKey) -> [DraftEvent] {
        let draftKey = target.draftKey
        let before = drafts.text(for: draftKey)
        switch drafts.saveText(buffer, for: draftKey) {
        case .saved:
            return [DraftEvent(.saved, draftKey, .left(key), snapshot(draftKey))]
        case .removed:
            let emptied = DraftStore.Removed(text: before, attachments: [])
            push(draftKey, emptied)
            return [DraftEvent(.removed, draftKey, .leftEmpty(key), emptied)]
        case .none:
            return []
        }
    }

    /// Entering `target`: its draft, if any, is in the edit line again.
    public func enter(_ target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        guard drafts.hasDraft(for: key) else { return [] }
        return [DraftEvent(.restored, key, .entering(target), snapshot(key))]
    }

    /// Adds a file to the target's media list.
    public mutating func attach(_ attachment: Attachment, to target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        drafts.saveAttachments(drafts.attachments(for: key) + [attachment], for: key)
        return [DraftEvent(.saved, key, .attached(attachment.name), snapshot(key))]
    }

    /// Removes attachment `number` (from 1), or all of them when `nil`.
    public mutating func detach(_ number: Int?, from target: InputTarget) throws(DraftlineError) -> [DraftEvent] {
        let key = target.draftKey
        var attachments = drafts.attachments(for: key)
        if let number {
            guard attachments.indices.contains(number - 1) else {
                throw .noSuchAttachment(number, count: attachments.count)
            }
            attachments.remove(at: number - 1)
        } else {
            guard !attachments.isEmpty else { throw .noSuchAttachment(nil, count: 0) }
            attachments.removeAll()
        }
        let change = drafts.saveAttachments(attachments, for: key)
        return [DraftEvent(change == .removed ? .removed : .saved, key, .detached, snapshot(key))]
    }

    /// Takes the target's draft out for a send of `text`: removed first, as the original
    /// does. A blank line with no media clears the draft (onto the undo stack) instead.
    public mutating func takeForSending(
        _ target: InputTarget, text: String
    ) -> (taken: DraftStore.Removed, events: [DraftEvent]) {
        let key = target.draftKey
        let removed = drafts.remove(key)
        guard !removed.isEmpty else { return (removed, []) }
        if text.allSatisfy(\.isWhitespace) && removed.attachments.isEmpty {
            push(key, removed)
            return (removed, [DraftEvent(.cleared, key, .blankLine, removed)])
        }
        var events = [DraftEvent(.removed, key, .sending, removed)]
        if let draft = removed.text, !Self.holds(text, draft.text) {
            let replaced = DraftStore.Removed(text: draft, attachments: [])
            push(key, replaced)
            events.append(DraftEvent(.discarded, key, .replacedBySend, replaced))
        }
        return (removed, events)
    }

    /// Whether `line` holds every character of `draft`, in order: the draft finished by
    /// typing into it (anywhere), rather than replaced by another line.
    static func holds(_ line: String, _ draft: String) -> Bool {
        var rest = draft.unicodeScalars[...]
        for scalar in line.unicodeScalars where scalar == rest.first { rest = rest.dropFirst() }
        return rest.isEmpty
    }

    /// A send failed where no edit line can take the text back (a pipe): what was not
    /// stored goes on the undo stack, so that the next line is a message of its own.
    public mutating func setAside(_ unsent: DraftStore.Removed, for target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        push(key, unsent)
        return [DraftEvent(.discarded, key, .sendFailedAside, unsent)]
    }

    /// The line was abandoned (Ctrl-C) holding `line`: the target's text draft is
    /// removed, and the line (or, when it was empty, the draft) goes on the undo stack.
    /// The media list stays: it is not in the line.
    public mutating func interrupt(_ target: InputTarget, line: TextDraft) -> [DraftEvent] {
        let key = target.draftKey
        let draft = drafts.text(for: key)
        drafts.saveText(TextDraft(text: ""), for: key)
        guard let kept = line.text.isEmpty ? draft : line else { return [] }
        let abandoned = DraftStore.Removed(text: kept, attachments: [])
        push(key, abandoned)
        return [DraftEvent(.discarded, key, .interrupted, abandoned)]
    }

    /// Puts back what a failed send did not store.
    public mutating func putBack(_ unsent: DraftStore.Removed, for target: InputTarget) -> [DraftEvent] {
        let key = target.draftKey
        drafts.restore(unsent, for: key)
        return [DraftEvent(.restored, key, .sendFailed, snapshot(key))]
    }

    /// `/discard`: drops the target's draft onto the undo stack.
    public mutating func discard(_ target: InputTarget) throws(DraftlineError) -> [DraftEvent] {
        let key = target.draftKey
        guard drafts.hasDraft(for: key) else { throw .noDraftHere }
        let removed = drafts.remove(key)
        push(key, removed)
        return [DraftEvent(.discarded, key, .discardCommand, removed)]
    }

    /// `/undo`: the last lost draft is back under its key. A newer draft that was there
    /// goes on the stack in its place, and `replaced` says so.
    public mutating func undo() throws(DraftlineError) -> (restored: Lost, replaced: Bool, events: [DraftEvent]) {
        guard let last = undoStack.popLast() else { throw .nothingToUndo }
        let current = drafts.remove(last.key)
        if !current.isEmpty { push(last.key, current) }
        drafts.restore(last.draft, for: last.key)
        return (last, !current.isEmpty, [DraftEvent(.restored, last.key, .undo, snapshot(last.key))])
    }

    /// Quitting: every draft and the undo stack are forgotten.
    public mutating func forgetAll() -> [DraftEvent] {
        let events = drafts.keys.map { DraftEvent(.discarded, $0, .quitting, snapshot($0)) }
        drafts.removeAll()
        undoStack.removeAll()
        return events
    }

    private mutating func push(_ key: DraftKey, _ draft: DraftStore.Removed) {
        guard !draft.isEmpty else { return }
        undoStack.append(Lost(key: key, draft: draft))
        if undoStack.count > Self.undoDepth { undoStack.removeFirst() }
    }
}
