package plugins

trait Plugin {
  def name: String
  def start(ctx: Context): Unit
  def describe(): String = s"plugin $name"
}

class Context(val id: String) {
  private val events = scala.collection.mutable.ListBuffer[String]()
  def record(event: String): Unit = events += event
  def dump(): List[String] = events.toList
}
