/// The names a new skill project derives from the NAME given to `skillhost new`, e.g. "weather-alerts":
///   module      WeatherAlerts            (Swift module and type; C file stem is the NAME itself)
///   product     WeatherAlertsSkill       (→ libWeatherAlertsSkill.so)
///   id          com.example.weather-alerts   (`--id` overrides)
///   namespace   weather_alerts           (first segment of the example intent, "weather_alerts.greet")
struct ScaffoldNames {
    let name: String
    let module: String
    let product: String
    let id: String
    let namespace: String
    let title: String
    let vendor: String

    /// Nil, with the reason, when NAME cannot become all of the above.
    static func make(name: String, id: String?, vendor: String?) -> Result<ScaffoldNames, UsageError> {
        func isLower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7a }
        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        /// A lowercase letter, then only a-z, 0-9, - and _ (NAME, and each segment of an id).
        func isSegment<S: StringProtocol>(_ s: S) -> Bool {
            guard let f = s.utf8.first, isLower(f) else { return false }
            return s.utf8.allSatisfy { isLower($0) || isDigit($0) || $0 == 0x2d || $0 == 0x5f }
        }
        guard isSegment(name) else {
            return .failure(UsageError("NAME must start with a lowercase letter and hold only a-z, 0-9, - and _ (like \"weather-alerts\"), found \"\(name)\""))
        }
        let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
        let module = words.joined()
        let product = module.hasSuffix("Skill") ? module : module + "Skill"
        let skillID = id ?? "com.example." + name.replacing("_", with: "-")
        let idParts = skillID.split(separator: ".", omittingEmptySubsequences: false)
        guard idParts.count >= 2, idParts.allSatisfy(isSegment) else {
            return .failure(UsageError("--id must be a lowercase reverse-DNS id like \"com.example.weather-alerts\", found \"\(skillID)\""))
        }
        return .success(ScaffoldNames(name: name, module: module, product: product, id: skillID,
                                      namespace: name.replacing("-", with: "_"), title: words.joined(separator: " "),
                                      vendor: vendor ?? "Example"))
    }

    /// Replaces every {{KEY}} in `template`. The free-text values (VENDOR, and SDK, a path) stand
    /// inside string literals in the templates, so they are escaped for `lang`'s literals ("c" or
    /// "swift"): a quote, a backslash or a control character in `--vendor` cannot break the code.
    /// Paths of generated files (`lang` nil) take the raw values.
    func fill(_ template: String, sdk: String, lang: String? = nil) -> String {
        func literal(_ v: String) -> String {
            switch lang {
            case "c": return Self.cStringContent(v)
            case "swift": return Self.swiftStringContent(v)
            default: return v
            }
        }
        var s = template
        for (key, value) in [("NAME", name), ("MODULE", module), ("PRODUCT", product), ("ID", id), ("NS", namespace),
                             ("TITLE", title), ("VENDOR", literal(vendor)), ("SDK", lang == "swift" ? literal(sdk) : sdk)] {
            s = s.replacing("{{\(key)}}", with: value)
        }
        return s
    }

    /// `v` as the inside of a C string literal: `\\`, `\"`, `\?` (no trigraphs under -std=c99), and
    /// control characters as three-digit octal escapes (which, unlike `\x`, cannot swallow the next
    /// character). Other UTF-8 passes through.
    static func cStringContent(_ v: String) -> String {
        var out = ""
        for c in v.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "?": out += "\\?"
            case _ where c.value < 0x20 || c.value == 0x7f:
                let octal = String(c.value, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// `v` as the inside of a Swift string literal: `\\`, `\"` and control characters as `\u{…}`.
    static func swiftStringContent(_ v: String) -> String {
        var out = ""
        for c in v.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case _ where c.value < 0x20 || c.value == 0x7f: out += "\\u{" + String(c.value, radix: 16) + "}"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
