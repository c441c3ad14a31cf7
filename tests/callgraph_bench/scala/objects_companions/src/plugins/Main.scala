package plugins

import Registry._

object Main extends App {
  val context = new Context("main")
  register(Greeter())
  register(Clock.fixed(100))
  Registry.register(Clock(7))
  startAll(context)
  find("greeter").map(_.describe()).foreach(println)
  val greeter = Greeter.withGreeting("Hi")
  println(greeter.greet("you"))
  println(s"${Registry.size} plugins")
  context.dump().foreach(println)
}
