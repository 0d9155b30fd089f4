import CAvahi
import Logging
import Synchronization

/// Announces the node over mDNS/DNS-SD through the system's avahi-daemon: its OSCQuery
/// server as `_oscjson._tcp` and its OSC port as `_osc._udp`, so controllers find it without
/// being told the address. Without a daemon it does nothing and says so only at debug
/// level: most machines that run JACK have one, and one without is not an error.
///
/// Avahi calls back on its own thread (a threaded poll); the entry group is made and
/// changed only there, or under the poll's lock.
public final class ServiceAnnouncer: @unchecked Sendable {
    public struct Service: Sendable {
        public var type: String  // "_oscjson._tcp"
        public var port: Int
        public init(type: String, port: Int) {
            self.type = type
            self.port = port
        }
    }

    private let services: [Service]
    private let logger: Logger
    private var name: String
    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    /// True once the daemon has the services registered (for tests and the log).
    private let registered = Atomic<Bool>(false)
    public var isRegistered: Bool { registered.load(ordering: .acquiring) }

    /// Starts announcing; nil when no avahi-daemon answers.
    public init?(name: String, services: [Service], logger: Logger = Logger(label: "toneshaper.mdns")) {
        self.name = name
        self.services = services
        self.logger = logger
        guard let poll = avahi_threaded_poll_new() else { return nil }
        self.poll = poll
        var error: Int32 = 0
        let me = Unmanaged.passUnretained(self).toOpaque()
        // Fails at once when no daemon runs (no AVAHI_CLIENT_NO_FAIL): then the node
        // carries on unannounced.
        client = avahi_client_new(
            avahi_threaded_poll_get(poll), AvahiClientFlags(0),
            { client, state, userdata in
                guard let client, let userdata else { return }
                Unmanaged<ServiceAnnouncer>.fromOpaque(userdata).takeUnretainedValue().clientChanged(client, state)
            }, me, &error)
        guard client != nil else {
            logger.debug("no mDNS announcement: \(String(cString: avahi_strerror(error)))")
            avahi_threaded_poll_free(poll)
            self.poll = nil
            return nil
        }
        avahi_threaded_poll_start(poll)
    }

    deinit { stop() }

    public func stop() {
        guard let poll else { return }
        avahi_threaded_poll_stop(poll)
        if let client { avahi_client_free(client) }  // frees the group too
        avahi_threaded_poll_free(poll)
        self.poll = nil
        client = nil
        group = nil
    }

    // On avahi's thread from here on.

    private func clientChanged(_ client: OpaquePointer, _ state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            register(client)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The host name changed or collided: withdraw until the daemon is running again.
            if let group { avahi_entry_group_reset(group) }
            registered.store(false, ordering: .releasing)
        case AVAHI_CLIENT_FAILURE:
            logger.notice("mDNS announcement stopped: \(String(cString: avahi_strerror(avahi_client_errno(client))))")
            registered.store(false, ordering: .releasing)
        default:
            break
        }
    }

    private func register(_ client: OpaquePointer) {
        if group == nil {
            let me = Unmanaged.passUnretained(self).toOpaque()
            group = avahi_entry_group_new(
                client,
                { group, state, userdata in
                    guard let group, let userdata else { return }
                    Unmanaged<ServiceAnnouncer>.fromOpaque(userdata).takeUnretainedValue().groupChanged(group, state)
                }, me)
        }
        guard let group else { return }
        guard avahi_entry_group_is_empty(group) != 0 else { return }
        for service in services {
            let result = avahi_entry_group_add_service_strlst(
                group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
                name, service.type, nil, nil, UInt16(service.port), nil)
            if result == AVAHI_ERR_COLLISION {
                renameAndRetry(client)
                return
            }
            if result < 0 {
                logger.notice("mDNS: cannot announce \(service.type): \(String(cString: avahi_strerror(result)))")
                return
            }
        }
        avahi_entry_group_commit(group)
    }

    private func groupChanged(_ group: OpaquePointer, _ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            registered.store(true, ordering: .releasing)
            logger.info("announced over mDNS as \"\(name)\" (\(services.map(\.type).joined(separator: ", ")))")
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Another node took the name: "toneshaper #2", as avahi suggests.
            if let client { renameAndRetry(client) }
        default:
            break
        }
    }

    private func renameAndRetry(_ client: OpaquePointer) {
        if let alternative = avahi_alternative_service_name(name) {
            name = String(cString: alternative)
            avahi_free(alternative)
        }
        if let group { avahi_entry_group_reset(group) }
        register(client)
    }
}
