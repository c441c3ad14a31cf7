package html

fun Tag.cssClass(value: String): Tag = attr("class", value)

fun Tag.link(href: String, label: String): Tag {
    val a = child(Tag("a"))
    a.attr("href", href).append(label)
    return a
}

fun String.escaped(): String = replace("<", "&lt;").replace(">", "&gt;")

fun Tag.paragraph(content: String): Tag = child(Tag("p")).apply {
    append(content.escaped())
    cssClass("body")
}
