// Rewrites the command tables of the man page and the README from the command
// declarations:
//
//     swift run draftline-man Documentation/draftline.1 README.md
//
// Each table sits between two marker lines (ManPage.section, ReadmeCommands.section); a
// file is told by its name (`.md`: the README's table, else the man page's).
import DraftlineREPL
import Foundation

let paths = CommandLine.arguments.dropFirst()
guard !paths.isEmpty else {
    FileHandle.standardError.write(Data("usage: draftline-man PAGE.1 [README.md ...]\n".utf8))
    exit(64)
}
for path in paths {
    let updating = path.hasSuffix(".md") ? ReadmeCommands.updating : ManPage.updating
    guard let text = try? String(contentsOfFile: path, encoding: .utf8), let updated = updating(text) else {
        FileHandle.standardError.write(Data("draftline-man: \(path) has no command table between the markers\n".utf8))
        exit(1)
    }
    do {
        if updated != text { try updated.write(toFile: path, atomically: true, encoding: .utf8) }
    } catch {
        FileHandle.standardError.write(Data("draftline-man: cannot write \(path): \(error)\n".utf8))
        exit(1)
    }
}
