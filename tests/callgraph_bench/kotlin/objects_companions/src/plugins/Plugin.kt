package plugins

interface Plugin {
    val id: String

    fun start(context: Context)

    fun describe(): String = "plugin $id"
}

class Context(val name: String) {
    private val log = mutableListOf<String>()

    fun record(message: String) {
        log.add("[$name] $message")
    }

    fun dump(): List<String> = log.toList()
}
