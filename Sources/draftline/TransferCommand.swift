import DraftKit
import DraftlineREPL

/// `draftline import FILE` and `draftline export FILE [--chat ID]`: one line saying what
/// was done, or one saying why nothing was, and a `warning:` line for each thing the store
/// noticed on the way. An import reads its file, and an export checks its destination
/// (``OutputPath``), before the data directory is opened, so a file it cannot use changes
/// nothing, not even by making one.
enum TransferCommand {
    static func run(
        _ transfer: Options.Transfer, dataDirectory: String, openData: () throws(StoreError) -> DataDirectory
    ) -> Int32 {
        // Whether the data directory opened: a store error after it, in an import, is
        // messages that could not be stored.
        var opened = false
        /// The history, with the contacts deciding what a file that records no kinds meant.
        func open() throws(TransferError) -> HistoryTransfer {
            do throws(StoreError) {
                let data = try openData()
                opened = true
                var contacts: ContactBook?
                return HistoryTransfer(history: data.history) { (name: String) throws(FileError) -> Bool in
                    let book = contacts ?? data.loadContacts()
                    contacts = book
                    if let failure = book.readFailure { throw failure }
                    guard let key = try? GlobalKey(validating: name) else { return false }
                    return try book.contact(key) != nil
                }
            } catch {
                throw .store(error)
            }
        }
        do throws(TransferError) {
            switch transfer {
            case .importing(let file):
                let chats = try ChatLogFile(contentsOf: file)
                let summary = try open().importChats(chats)
                warn(summary.warnings.map(Presenter.describe) + Presenter().lines(forUndatable: summary.undatable))
                Console.write(TerminalText.visible(Presenter.imported(summary, from: file)) + "\n", to: .output)
            case .exporting(let file, let chat):
                let output: OutputPath
                do throws(OutputPathError) {
                    output = try OutputPath(file, dataDirectory: dataDirectory)
                } catch {
                    throw .unwritable(error)
                }
                let summary = try open().export(to: output, chat: chat)
                warn(summary.warnings.map(Presenter.describe))
                Console.write(TerminalText.visible(Presenter.exported(summary, to: file)) + "\n", to: .output)
            }
            return Draftline.ExitStatus.success
        } catch {
            let importing = if case .importing = transfer { true } else { false }
            let words = Presenter.describe(error, importing: importing)
            Console.write(
                "draftline \(importing ? "import" : "export"): \(TerminalText.visible(words, keepNewlines: false))\n",
                to: .error)
            // Messages that could not be stored: an import that stopped, or whose store failed
            // once the data directory was open.
            if case .importStopped = error { return Draftline.ExitStatus.notStored }
            if case .store = error, opened, importing { return Draftline.ExitStatus.notStored }
            return Draftline.ExitStatus.unusable
        }
    }

    private static func warn(_ warnings: [String]) {
        for warning in warnings {
            Console.write("warning: \(TerminalText.visible(warning, keepNewlines: false))\n", to: .error)
        }
    }
}
