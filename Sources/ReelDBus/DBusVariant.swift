import CGio
import ReelCore

/// ``DBusValue`` to GLib's GVariant and back: the values MPRIS uses.
enum DBusVariant {
    /// A new floating GVariant holding `value` (the call it is passed to takes it).
    static func make(_ value: DBusValue) -> OpaquePointer {
        switch value {
        case .string(let text): return g_variant_new_string(text)
        case .objectPath(let path): return g_variant_new_object_path(path)
        case .bool(let flag): return g_variant_new_boolean(flag ? 1 : 0)
        case .int64(let number): return g_variant_new_int64(gint64(number))
        case .double(let number): return g_variant_new_double(number)
        case .strings(let list):
            let copies = list.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            let pointers: [UnsafePointer<gchar>?] = copies.map { UnsafePointer($0) }
            return pointers.withUnsafeBufferPointer { g_variant_new_strv($0.baseAddress, gssize($0.count)) }
        case .dictionary(let fields):
            let entries: [OpaquePointer?] = fields.sorted { $0.key < $1.key }.map { key, value in
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(make(value)))
            }
            return array(of: "{sv}", entries)
        }
    }

    /// A new floating tuple of `values`.
    static func tuple(_ values: [OpaquePointer?]) -> OpaquePointer {
        values.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// A new floating array of `elements`, each of type `elementType` (needed for an empty one).
    static func array(of elementType: String, _ elements: [OpaquePointer?]) -> OpaquePointer {
        let type = g_variant_type_new(elementType)
        defer { g_variant_type_free(type) }
        return elements.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
    }

    /// The value a GVariant holds, for the types MPRIS sends (`s`, `o`, `b`, `x`, `d`);
    /// nil for any other.
    static func read(_ variant: OpaquePointer) -> DBusValue? {
        switch String(cString: g_variant_get_type_string(variant)) {
        case "s": .string(String(cString: g_variant_get_string(variant, nil)))
        case "o": .objectPath(String(cString: g_variant_get_string(variant, nil)))
        case "b": .bool(g_variant_get_boolean(variant) != 0)
        case "x": .int64(Int64(g_variant_get_int64(variant)))
        case "d": .double(g_variant_get_double(variant))
        default: nil
        }
    }

    /// The children of a tuple (a method call's arguments); nil when one is of a type
    /// ``read(_:)`` does not take.
    static func arguments(_ tuple: OpaquePointer) -> [DBusValue]? {
        var values: [DBusValue] = []
        for index in 0..<g_variant_n_children(tuple) {
            guard let child = g_variant_get_child_value(tuple, index) else { return nil }
            defer { g_variant_unref(child) }
            guard let value = read(child) else { return nil }
            values.append(value)
        }
        return values
    }
}
