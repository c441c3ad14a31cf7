package html

class Page(private val title: String) {
    private val root = Tag("html")

    fun build(): String {
        val body = root.child(Tag("body"))
        with(body) {
            child(Tag("h1")).append(title)
            paragraph("Welcome")
            link("/about", "About us").cssClass("nav")
        }
        body.paragraph("Bye").also { it.cssClass("footer") }
        root.let { it.attr("lang", "en") }
        return root.run { render() }
    }
}

fun page(title: String): String = Page(title).build()
