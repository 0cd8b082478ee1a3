import FoundationEssentials
import Glibc

/// Consent given at install, and how it is recorded.
extension Grant {
    /// A grant from `skillhost install --grant …` values (repeatable, each a comma-separated list):
    ///   all            everything `requested` asks for, as it is now (a later version that asks for more
    ///                  is not granted the difference: it shows as missing until the owner grants it)
    ///   none           nothing beyond the data folder
    ///   network=HOST:PORT  read=PATH  write=PATH  env=NAME  programs   one entry each
    /// Explicit entries add to `all`/`none`. Throws with what is wrong and the accepted forms.
    public static func parse(_ values: [String], requested: Permissions) throws(SkillError) -> Grant {
        var p = Permissions()
        for item in values.flatMap({ $0.split(separator: ",").map(String.init) }) {
            let kv = item.split(separator: "=", maxSplits: 1).map(String.init)
            switch (kv[0], kv.count) {
            case ("all", 1): p = p.adding(requested)
            case ("none", 1): break
            case ("programs", 1): p.programs = true
            case ("network", 2): p.network.append(kv[1])
            case ("read", 2): p.read.append(kv[1])
            case ("write", 2): p.write.append(kv[1])
            case ("env", 2), ("environment", 2): p.environment.append(kv[1])
            default:
                throw SkillError(.invalidInput, "--grant \"\(item)\": expected all, none, programs, network=HOST:PORT, read=PATH, write=PATH or env=NAME",
                                 hint: "for example --grant all, or --grant network=api.example.com:443,read={config:calendars}")
            }
        }
        if let problem = p.problem() {
            throw SkillError(.invalidInput, "--grant: \(problem)")
        }
        return Grant(p)
    }
}

extension SkillHost {
    /// The config file grants are written to: the one in use, else the default one.
    public var configFileForGrants: String { config.source ?? paths.configDir + "/config.json" }

    /// Records `grant` for skill `id` in the config file (`"grants": {id: …}`), keeping every other
    /// member; creates the file (mode 0600) if there is none. Written to a temporary file and renamed
    /// into place. Returns the file's path. Takes effect for hosts opened afterwards.
    @discardableResult
    public func recordGrant(_ grant: Grant, for id: String) throws(SkillError) -> String {
        let path = configFileForGrants
        var top = JSONObject()
        if let data = FileManager.default.contents(atPath: path) {
            guard let j = try? JSON.parse([UInt8](data)), case .object(let o) = j else {
                throw SkillError(.invalidInput, "cannot record the grant for \(id): config file \"\(path)\" is not a JSON object",
                                 hint: "fix the file, then run the install again")
            }
            top = o
        }
        var grants = top["grants"]?.objectValue ?? JSONObject()
        grants[id] = grant.json
        top["grants"] = .object(grants)
        let dir = PathText.directory(of: PathText.absolute(path))
        do { try makeDirectories(dir) } catch {
            throw SkillError(.internal, "cannot create the config folder \"\(dir)\": \(error)")
        }
        var text = JSON.object(top).pretty
        text += "\n"
        let tmp = path + ".granting.\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw SkillError(.internal, "cannot write \"\(tmp)\": \(String(cString: strerror(errno)))", hint: "check that you can write to \(dir)")
        }
        let ok = StateFile.writeAll(fd, Array(text.utf8)) && fsync(fd) == 0
        close(fd)
        guard ok, rename(tmp, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(tmp)
            throw SkillError(.internal, "cannot write the config file \"\(path)\": \(why)")
        }
        return path
    }
}
