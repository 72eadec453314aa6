// libFuzzer entry point: FuzzProperties.contactsAgree, draftline's own readers of
// contacts.plist against Foundation's decoder on the same bytes (issue 30). Built by
// `make fuzz`.
import DraftKitFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContactsAgree(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if let failure = FuzzProperties.contactsAgree(Array(UnsafeBufferPointer(start: data, count: size))) {
        fatalError(failure)
    }
    return 0
}
