import Foundation

/// Property lists read and written by an independent hand: Python's `plistlib`.
extension Fixture {
    /// The top level of a property list that is a dictionary, read by `plistlib` (values
    /// that JSON cannot hold, such as dates, as their text).
    public func propertyList(at path: String) throws -> [String: Any] {
        let script = """
            import json, plistlib, sys
            json.dump(plistlib.load(open(sys.argv[1], "rb")), sys.stdout, default=str)
            """
        let result = try Self.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, path], environment: environment(), timeout: 60)
        guard result.status == 0,
            let dictionary = try JSONSerialization.jsonObject(with: result.output) as? [String: Any]
        else {
            throw PseudoTerminal.Failure(
                description: "plistlib could not read \(path): \(String(decoding: result.error, as: UTF8.self))")
        }
        return dictionary
    }

    /// Writes `contacts.plist` into a data directory with `plistlib`: each key, named by
    /// its upper case.
    public func writeContacts(_ keys: [String], into data: String) throws {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let script = """
            import plistlib, sys
            plistlib.dump([{"global_key": k, "name": k.upper()} for k in sys.argv[2:]], open(sys.argv[1], "wb"))
            """
        let result = try Self.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, data + "/contacts.plist"] + keys,
            environment: environment(), timeout: 60)
        guard result.status == 0 else {
            throw PseudoTerminal.Failure(
                description: "plistlib could not write contacts: \(String(decoding: result.error, as: UTF8.self))")
        }
    }
}
