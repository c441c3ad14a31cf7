func makeController() -> NoteController {
    let store = NoteStore()
    let welcome = Note(id: 1, title: "Welcome")
    store.insert(welcome)
    return NoteController(store: store)
}

func demo() {
    let controller = makeController()
    _ = controller.rename(id: 1, to: "Hello")
    if let label = controller.tagLabel(of: 1) {
        print(label)
    }
    controller.reload { count in
        print(count)
    }
}
