import Foundation

func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func format(_ line: String) -> String {
    "> " + line
}
