package plugins

fun boot(): Context {
    val context = Context("main")
    Registry.register(Greeter.create())
    Registry.register(Clock.Factory.fixed(100))
    Registry.startAll(context)
    Registry.find("greeter")?.describe()
    val greeter = Greeter.withGreeting("Hi")
    println(greeter.greet("you"))
    return context
}

fun main() {
    boot().dump().forEach(::println)
}
