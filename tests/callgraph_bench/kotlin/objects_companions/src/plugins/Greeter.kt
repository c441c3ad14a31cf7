package plugins

class Greeter private constructor(private val greeting: String) : Plugin {
    override val id: String = "greeter"

    override fun start(context: Context) {
        context.record(greet("world"))
    }

    fun greet(name: String): String = "$greeting, $name"

    companion object {
        const val DEFAULT = "Hello"

        fun create(): Greeter = withGreeting(DEFAULT)

        fun withGreeting(greeting: String): Greeter = Greeter(greeting)
    }
}
