final class Note {
    let id: Int
    var title: String
    var tags: [Tag] = []

    init(id: Int, title: String) {
        self.id = id
        self.title = title
    }

    func rename(to title: String) {
        self.title = title
    }

    func primaryTag() -> Tag? {
        tags.first
    }
}

struct Tag {
    let label: String

    func normalized() -> String {
        label.lowercased()
    }
}
