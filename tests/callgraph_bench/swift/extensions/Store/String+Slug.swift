import Foundation

extension String {
    func slugified() -> String {
        trimmed().lowercased().replacingOccurrences(of: " ", with: "-")
    }

    func trimmed() -> String {
        trimmingCharacters(in: .whitespaces)
    }
}
