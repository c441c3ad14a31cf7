protocol NoteStoreDelegate: AnyObject {
    func storeDidChange(_ store: NoteStore)
}

final class NoteStore {
    weak var delegate: NoteStoreDelegate?
    private var notes: [Int: Note] = [:]
    private var observers: [(Note) -> Void] = []

    func find(_ id: Int) -> Note? {
        notes[id]
    }

    func insert(_ note: Note) {
        notes[note.id] = note
        observers.forEach { $0(note) }
        delegate?.storeDidChange(self)
    }

    func observe(_ handler: @escaping (Note) -> Void) {
        observers.append(handler)
    }

    func all() -> [Note] {
        notes.values.sorted { $0.id < $1.id }
    }
}
