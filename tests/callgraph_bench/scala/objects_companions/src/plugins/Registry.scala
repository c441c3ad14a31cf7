package plugins

object Registry {
  private var plugins: List[Plugin] = Nil

  def register(p: Plugin): Unit = plugins = p :: plugins

  def find(name: String): Option[Plugin] = plugins.find(_.name == name)

  def startAll(ctx: Context): Unit =
    plugins.foreach { p =>
      ctx.record(p.describe())
      p.start(ctx)
    }

  def size: Int = plugins.size
}
