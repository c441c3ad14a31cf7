package plugins

class Greeter private (greeting: String) extends Plugin {
  def name: String = "greeter"
  def start(ctx: Context): Unit = ctx.record(greet("world"))
  def greet(who: String): String = s"$greeting, $who"
}

object Greeter {
  def apply(): Greeter = withGreeting("Hello")
  def withGreeting(greeting: String): Greeter = new Greeter(greeting)
}
