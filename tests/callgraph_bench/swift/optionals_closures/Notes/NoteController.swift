import Dispatch

final class NoteController: NoteStoreDelegate {
    private let store: NoteStore
    private var lastTitle: String?

    init(store: NoteStore) {
        self.store = store
        store.delegate = self
        store.observe { [weak self] note in
            guard let self = self else { return }
            self.remember(note)
        }
    }

    func remember(_ note: Note) {
        lastTitle = note.title
    }

    func rename(id: Int, to title: String) -> Bool {
        guard let note = store.find(id) else {
            return false
        }
        note.rename(to: title)
        return true
    }

    func tagLabel(of id: Int) -> String? {
        store.find(id)?.primaryTag()?.normalized()
    }

    func forceRename(id: Int) {
        store.find(id)!.rename(to: "untitled")
    }

    func storeDidChange(_ store: NoteStore) {
        let titles = store.all().map { $0.title }
        if let first = store.all().first {
            first.rename(to: titles.joined())
        }
    }

    func handle(_ value: Any) {
        if let note = value as? Note {
            remember(note)
        }
        _ = (value as! Tag).normalized()
    }

    func reload(completion: @escaping (Int) -> Void) {
        DispatchQueue.main.async {
            let count = self.store.all().count
            self.log(count)
            completion(count)
        }
    }

    private func log(_ count: Int) {
        print("notes: \(count)")
    }
}
