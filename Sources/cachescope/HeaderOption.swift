import ArgumentParser
import HTTPTypes
import Foundation

/// Parses `--header 'Name: value'` options.
enum HeaderOption {
    static func parse(_ values: [String]) throws -> HTTPFields {
        var fields = HTTPFields()
        for value in values {
            guard let colon = value.firstIndex(of: ":") else {
                throw ValidationError("header \"\(value)\" must look like 'Name: value'")
            }
            let name = value[..<colon].trimmingCharacters(in: .whitespaces)
            let fieldValue = value[value.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard let fieldName = HTTPField.Name(name) else {
                throw ValidationError("\"\(name)\" is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)")
            }
            guard HTTPField.isValidValue(fieldValue) else {
                throw ValidationError("the value of header \"\(name)\" contains characters not allowed in HTTP")
            }
            fields.append(HTTPField(name: fieldName, value: fieldValue))
        }
        return fields
    }
}
