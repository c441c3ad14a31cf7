package html

class Tag(val name: String) {
    private val children = mutableListOf<Tag>()
    private val attributes = linkedMapOf<String, String>()
    var text: String = ""

    fun attr(key: String, value: String): Tag {
        attributes[key] = value
        return this
    }

    fun child(tag: Tag): Tag {
        children.add(tag)
        return tag
    }

    fun append(more: String) {
        text += more
    }

    fun render(): String = buildString {
        append("<$name")
        attributes.forEach { (k, v) -> append(" $k=\"$v\"") }
        append(">")
        append(text)
        children.forEach { append(it.render()) }
        append("</$name>")
    }
}
