package plugins

case class Clock(startedAt: Long) extends Plugin {
  val name = "clock"
  def start(ctx: Context): Unit = ctx.record(s"clock at ${elapsed(startedAt + 5)}")
  def elapsed(now: Long): Long = now - startedAt
}

object Clock {
  def fixed(at: Long): Clock = Clock(at)
  val Epoch: Clock = fixed(0)
}
