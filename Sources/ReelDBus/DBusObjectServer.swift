import CGio
import Foundation
import ReelCore

/// What an object exported on D-Bus answers: its methods and properties, by interface.
/// Called on the server's own thread.
public protocol DBusObjectHandler: AnyObject, Sendable {
    /// Runs `method` of `interface`; false when there is no such method or the arguments
    /// are wrong (the caller gets D-Bus's `InvalidArgs`).
    func call(interface: String, method: String, arguments: [DBusValue]) -> Bool
    /// The value of a property; nil when there is none.
    func property(interface: String, name: String) -> DBusValue?
    /// Sets a writable property; false when it cannot be set to `value`.
    func setProperty(interface: String, name: String, value: DBusValue) -> Bool
}

/// Why an object could not be exported on D-Bus.
public struct DBusError: Error, Sendable, CustomStringConvertible {
    /// GLib's message.
    public var description: String
}

/// One object exported on the session bus under a well-known name, through GLib's GDBus:
/// its interfaces from introspection XML, calls answered by a ``DBusObjectHandler`` on a
/// thread of the server's own (a GLib main loop), signals sent from any thread.
public final class DBusObjectServer: @unchecked Sendable {
    /// Weak: the handler usually owns the server.
    private weak var handler: (any DBusObjectHandler)?
    private let objectPath: String
    private var connection: OpaquePointer?
    private var context: OpaquePointer?
    private var loop: OpaquePointer?
    private var registrations: [guint] = []
    private var nameOwner: guint = 0
    private var node: UnsafeMutablePointer<GDBusNodeInfo>?
    private let vtable: UnsafeMutablePointer<GDBusInterfaceVTable>
    private let lock = NSLock()
    private var closed = false

    /// Exports `handler` at `objectPath` with the interfaces `introspection` describes, and
    /// asks for `busName`. Throws when there is no session bus or the XML is wrong.
    public init(busName: String, objectPath: String, introspection: String, handler: any DBusObjectHandler) throws(DBusError) {
        self.handler = handler
        self.objectPath = objectPath
        vtable = .allocate(capacity: 1)
        vtable.initialize(to: GDBusInterfaceVTable())
        vtable.pointee.method_call = dbusMethodCall
        vtable.pointee.get_property = dbusGetProperty
        vtable.pointee.set_property = dbusSetProperty

        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(introspection, &error) else { throw Self.failure(error) }
        self.node = node
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        // Calls are delivered to the main context that is the thread's default when the
        // object is registered: the loop's thread registers it.
        let started = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        // GLib's pointers, handed to the loop's thread once.
        nonisolated(unsafe) let loopContext = self.context
        nonisolated(unsafe) let mainLoop = self.loop
        Thread.detachNewThread { [self] in
            g_main_context_push_thread_default(loopContext)
            defer { g_main_context_pop_thread_default(loopContext) }
            do throws(DBusError) {
                try register(busName: busName)
            } catch {
                outcome.failure = error
            }
            let failed = outcome.failure != nil
            started.signal()
            if !failed { g_main_loop_run(mainLoop) }
        }
        started.wait()
        if let failure = outcome.failure {
            release()
            throw failure
        }
    }

    deinit {
        close()
        vtable.deallocate()
    }

    /// `org.freedesktop.DBus.Properties.PropertiesChanged` for `interface`'s `changed` values.
    public func propertiesChanged(interface: String, _ changed: [String: DBusValue]) {
        guard !changed.isEmpty else { return }
        let values = DBusVariant.make(.dictionary(changed))
        emit(interface: "org.freedesktop.DBus.Properties", signal: "PropertiesChanged",
             DBusVariant.tuple([g_variant_new_string(interface), values, DBusVariant.array(of: "s", [])]))
    }

    /// Sends `signal` of `interface` with `arguments`.
    public func signal(interface: String, name: String, _ arguments: [DBusValue]) {
        emit(interface: interface, signal: name, DBusVariant.tuple(arguments.map(DBusVariant.make)))
    }

    /// Gives the name up, withdraws the object and ends the server's thread.
    public func close() {
        let wasOpen = lock.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
        guard wasOpen else { return }
        if let connection { g_dbus_connection_flush_sync(connection, nil, nil) }
        release()
    }

    // MARK: Inside

    private func register(busName: String) throws(DBusError) {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { throw Self.failure(error) }
        self.connection = connection
        let context = Unmanaged.passUnretained(self).toOpaque()
        var interface = node?.pointee.interfaces
        while let info = interface?.pointee {
            let id = g_dbus_connection_register_object(connection, objectPath, info, vtable, context, nil, &error)
            guard id != 0 else { throw Self.failure(error) }
            registrations.append(id)
            interface = interface?.successor()
        }
        nameOwner = g_bus_own_name_on_connection(connection, busName, G_BUS_NAME_OWNER_FLAGS_NONE, nil, nil, nil, nil)
    }

    private func emit(interface: String, signal: String, _ arguments: OpaquePointer) {
        guard let connection, !lock.withLock({ closed }) else {
            g_variant_unref(g_variant_ref_sink(arguments))
            return
        }
        g_dbus_connection_emit_signal(connection, nil, objectPath, interface, signal, arguments, nil)
    }

    private func release() {
        if nameOwner != 0 { g_bus_unown_name(nameOwner) }
        if let connection { registrations.forEach { g_dbus_connection_unregister_object(connection, $0) } }
        registrations = []
        nameOwner = 0
        if let loop { g_main_loop_quit(loop); g_main_loop_unref(loop) }
        if let context { g_main_context_unref(context) }
        if let connection { g_object_unref(UnsafeMutableRawPointer(connection)) }
        if let node { g_dbus_node_info_unref(node) }
        (loop, context, connection, node) = (nil, nil, nil, nil)
    }

    /// What the loop's thread found registering, read after it signals.
    private final class Outcome: @unchecked Sendable {
        var failure: DBusError?
    }

    private static func failure(_ error: UnsafeMutablePointer<GError>?) -> DBusError {
        defer { if let error { g_error_free(error) } }
        return DBusError(description: error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "D-Bus failed")
    }

    fileprivate func handleCall(interface: String, method: String, parameters: OpaquePointer?, invocation: OpaquePointer?) {
        guard let arguments = parameters.flatMap(DBusVariant.arguments), handler?.call(interface: interface, method: method, arguments: arguments) == true else {
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.InvalidArgs", "\(interface).\(method): not this call")
            return
        }
        g_dbus_method_invocation_return_value(invocation, nil)
    }

    fileprivate func handleGet(interface: String, name: String) -> DBusValue? { handler?.property(interface: interface, name: name) }

    fileprivate func handleSet(interface: String, name: String, value: OpaquePointer?) -> Bool {
        guard let value = value.flatMap(DBusVariant.read) else { return false }
        return handler?.setProperty(interface: interface, name: name, value: value) == true
    }
}

// GDBus's callbacks, run on the server's thread: global functions, as C callbacks must be.

private func dbusMethodCall(_ connection: OpaquePointer?, _ sender: UnsafePointer<gchar>?, _ path: UnsafePointer<gchar>?,
                            _ interface: UnsafePointer<gchar>?, _ method: UnsafePointer<gchar>?, _ parameters: OpaquePointer?,
                            _ invocation: OpaquePointer?, _ context: gpointer?) {
    guard let context, let interface, let method else { return }
    Unmanaged<DBusObjectServer>.fromOpaque(context).takeUnretainedValue()
        .handleCall(interface: String(cString: interface), method: String(cString: method), parameters: parameters, invocation: invocation)
}

private func dbusGetProperty(_ connection: OpaquePointer?, _ sender: UnsafePointer<gchar>?, _ path: UnsafePointer<gchar>?,
                             _ interface: UnsafePointer<gchar>?, _ name: UnsafePointer<gchar>?,
                             _ error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?, _ context: gpointer?) -> OpaquePointer? {
    guard let context, let interface, let name,
          let value = Unmanaged<DBusObjectServer>.fromOpaque(context).takeUnretainedValue().handleGet(interface: String(cString: interface), name: String(cString: name))
    else {
        g_set_error_literal(error, g_dbus_error_quark(), gint(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "no such property")
        return nil
    }
    return DBusVariant.make(value)
}

private func dbusSetProperty(_ connection: OpaquePointer?, _ sender: UnsafePointer<gchar>?, _ path: UnsafePointer<gchar>?,
                             _ interface: UnsafePointer<gchar>?, _ name: UnsafePointer<gchar>?, _ value: OpaquePointer?,
                             _ error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?, _ context: gpointer?) -> gboolean {
    guard let context, let interface, let name,
          Unmanaged<DBusObjectServer>.fromOpaque(context).takeUnretainedValue().handleSet(interface: String(cString: interface), name: String(cString: name), value: value)
    else {
        g_set_error_literal(error, g_dbus_error_quark(), gint(G_DBUS_ERROR_INVALID_ARGS.rawValue), "cannot be set to that")
        return 0
    }
    return 1
}
