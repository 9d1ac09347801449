/// Turns the bytes of a theme file into a ``Theme``, reporting every problem at the line and
/// column of the offending value.
///
/// Roles the file leaves out are taken from `base` (the built-in `default` theme); a role the
/// file does write replaces the base's style for that role entirely.
struct ThemeFileDecoder {
    /// The name errors use for the file: its path, or a built-in theme's file name.
    let file: String
    /// Styles for roles the file does not define; empty while decoding `default` itself.
    let base: [ThemeRole: Style]

    static let topLevelKeys = ["name", "description", "colors", "roles"]
    static let styleKeys = ["fg", "bg", "bold", "dim", "underline", "reverse"]

    /// Decodes a theme; `fallbackName` is used when the file has no `"name"`.
    func decode(_ bytes: [UInt8], fallbackName: String) throws(ThemeError) -> Theme {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .syntax(location(error.position), message: error.message)
        }
        guard let members = root.members else {
            throw .notATheme(location(root.position), reason: "the file holds \(root.typeDescription)")
        }
        try rejectDuplicates(members, path: "")
        var name = fallbackName
        var usesColor = true
        var rolesNode: JSONNode?
        for member in members {
            switch member.key {
            case "name": name = try string(member, key: "name")
            case "description": _ = try string(member, key: "description")
            case "colors": usesColor = try bool(member, key: "colors")
            case "roles": rolesNode = member.value
            default:
                throw .unknownKey(location(member.keyPosition), key: member.key,
                                  context: "the theme", expected: Self.topLevelKeys)
            }
        }
        guard let rolesNode else {
            throw .notATheme(location(root.position), reason: "it has no \"roles\" object")
        }
        guard let roleMembers = rolesNode.members else {
            throw .wrongType(location(rolesNode.position), key: "roles",
                             expected: "an object of role styles", found: rolesNode.typeDescription)
        }
        try rejectDuplicates(roleMembers, path: "")
        var styles = base
        for member in roleMembers {
            guard let role = ThemeRole(rawValue: member.key) else {
                throw .unknownRole(location(member.keyPosition), role: member.key,
                                   suggestion: ThemeRole.closest(to: member.key)?.rawValue)
            }
            styles[role] = try style(member.value, role: role)
        }
        return Theme(name: name, usesColor: usesColor, styles: styles)
    }

    // MARK: Styles

    private func style(_ node: JSONNode, role: ThemeRole) throws(ThemeError) -> Style {
        guard let members = node.members else {
            throw .wrongType(location(node.position), key: role.rawValue,
                             expected: "an object such as {\"fg\": \"green\", \"bold\": true}",
                             found: node.typeDescription)
        }
        try rejectDuplicates(members, path: role.rawValue + ".")
        var style = Style()
        for member in members {
            let key = "\(role.rawValue).\(member.key)"
            switch member.key {
            case "fg": style.fg = try color(member.value, role: role, key: key)
            case "bg": style.bg = try color(member.value, role: role, key: key)
            case "bold": style.bold = try bool(member, key: key)
            case "dim": style.dim = try bool(member, key: key)
            case "underline": style.underline = try bool(member, key: key)
            case "reverse": style.reverse = try bool(member, key: key)
            default:
                throw .unknownKey(location(member.keyPosition), key: member.key,
                                  context: "role \"\(role.rawValue)\"", expected: Self.styleKeys)
            }
        }
        return style
    }

    private func color(_ node: JSONNode, role: ThemeRole, key: String) throws(ThemeError) -> Color {
        switch node.value {
        case .string(let text):
            guard let color = Color(parsing: text) else {
                throw .unknownColor(location(node.position), value: "\"\(text)\"", role: role.rawValue)
            }
            return color
        case .number(let number):
            guard number == number.rounded(), (0...255).contains(number) else {
                throw .unknownColor(location(node.position), value: Self.format(number), role: role.rawValue)
            }
            return .indexed(UInt8(number))
        default:
            throw .wrongType(location(node.position), key: key,
                             expected: "a colour (a name, a number 0-255 or \"#rrggbb\")",
                             found: node.typeDescription)
        }
    }

    // MARK: Scalars and checks

    private func string(_ member: JSONNode.Member, key: String) throws(ThemeError) -> String {
        guard case .string(let text) = member.value.value else {
            throw .wrongType(location(member.value.position), key: key, expected: "a string",
                             found: member.value.typeDescription)
        }
        return text
    }

    private func bool(_ member: JSONNode.Member, key: String) throws(ThemeError) -> Bool {
        guard case .bool(let flag) = member.value.value else {
            throw .wrongType(location(member.value.position), key: key, expected: "true or false",
                             found: member.value.typeDescription)
        }
        return flag
    }

    private func rejectDuplicates(_ members: [JSONNode.Member], path: String) throws(ThemeError) {
        var firstLines: [String: Int] = [:]
        for member in members {
            if let firstLine = firstLines[member.key] {
                throw .duplicateKey(location(member.keyPosition), key: path + member.key, firstLine: firstLine)
            }
            firstLines[member.key] = member.keyPosition.line
        }
    }

    private func location(_ position: SourcePosition) -> ThemeError.Location {
        ThemeError.Location(file: file, line: position.line, column: position.column)
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
