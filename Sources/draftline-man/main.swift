// Rewrites the command table of a man page from the command declarations:
//
//     swift run draftline-man Documentation/draftline.1
//
// The table sits between two comment lines (ManPage.beginMarker, ManPage.endMarker).
import DraftlineREPL
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: draftline-man PAGE\n".utf8))
    exit(64)
}
guard let page = try? String(contentsOfFile: path, encoding: .utf8), let updated = ManPage.updating(page) else {
    FileHandle.standardError.write(Data("draftline-man: \(path) has no command table between the markers\n".utf8))
    exit(1)
}
if updated != page { try updated.write(toFile: path, atomically: true, encoding: .utf8) }
