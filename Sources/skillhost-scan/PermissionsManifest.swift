import Glibc
import SkillABI
import SkillWire

/// `skh_skill.permissions` (ABI 1.2) as manifest JSON: null, or
/// `{"structSize":N,"flags":N,"network":[…],"read":[…],"write":[…],"environment":[…]}` with each list's
/// strings as `Line.field` writes them (an entry that is not UTF-8 becomes `{"invalidUTF8":true}`, which
/// the host refuses by name). A list longer than `maxEntries` is cut there and marked `"truncated":true`.
func describePermissions(_ pp: UnsafePointer<skh_permissions>?, into l: inout Line) {
    guard let pp else { return l.raw("null") }
    let p = pp.pointee
    let size = p.struct_size
    l.raw("{")
    l.key("structSize"); l.number(size)
    if has(size, end(\skh_permissions.flags)) { l.key("flags"); l.number(p.flags) }
    var truncated = false
    func list(_ items: UnsafePointer<UnsafePointer<CChar>?>?) {
        l.raw("[")
        var k = 0
        while let items, let item = items[k] {
            if k == maxPermissionEntries { truncated = true; break }
            if k > 0 { l.raw(",") }
            l.field(item)
            k += 1
        }
        l.raw("]")
    }
    if has(size, end(\skh_permissions.network)) { l.key("network"); list(p.network) }
    if has(size, end(\skh_permissions.read)) { l.key("read"); list(p.read) }
    if has(size, end(\skh_permissions.write)) { l.key("write"); list(p.write) }
    if has(size, end(\skh_permissions.environment)) { l.key("environment"); list(p.environment) }
    if truncated { l.key("truncated"); l.bool(true) }
    l.raw("}")
}

/// Entries read per list: more is a broken declaration, not a real need.
let maxPermissionEntries = 256
