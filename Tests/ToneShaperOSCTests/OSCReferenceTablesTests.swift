import Testing
import ToneShaperControl
import ToneShaperTestSupport

@testable import ToneShaperOSC

/// The table of the addresses the OSC server answers itself (`OSCServerAddress`) in the OSC
/// reference article is the code's own, like the core's tables (ReferenceTablesTests).
@Suite struct OSCReferenceTablesTests {
    @Test func articlesHoldTheServerAddressTable() throws {
        let name = "osc-server-addresses"
        if GeneratedReference.updateRequested {
            let changed = try GeneratedReference.update([name: OSCServerAddress.referenceTable])
            print(
                "TONESHAPER_UPDATE_REFERENCE=1: "
                    + (changed.isEmpty ? "the \(name) table was up to date" : "rewrote \(changed.joined(separator: ", "))"))
        }
        let found = try GeneratedReference.blocks().filter { $0.name == name }
        #expect(!found.isEmpty, "no article holds <!-- generated: \(name) -->")
        for block in found {
            #expect(
                block.content == GeneratedReference.content(OSCServerAddress.referenceTable),
                "\(block.article): the \(name) table is not the code's; run TONESHAPER_UPDATE_REFERENCE=1 swift test --filter ReferenceTables")
        }
    }

    /// The server answers exactly the addresses it declares, and none of them is also one of
    /// the core's (the server would take it first).
    @Test func declaredAddressesAreTheOnesTheServerAnswers() {
        let space = OSCAddressSpace(prefix: "/toneshaper")
        #expect(space.replyPortAddress == "/toneshaper/reply-port")
        #expect(space.subscribeAddress == "/toneshaper/subscribe")
        #expect(space.unsubscribeAddress == "/toneshaper/unsubscribe")
        for address in OSCServerAddress.all {
            #expect(ControlAddress.named(address.path) == nil, "\(address.path) is also a core address")
        }
    }
}
