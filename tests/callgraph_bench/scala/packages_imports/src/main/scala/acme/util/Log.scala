package acme.util

class Log(prefix: String) {
  def info(msg: String): Unit = println(format("INFO", msg))
  def warn(msg: String): Unit = println(format("WARN", msg))
  private def format(level: String, msg: String): String = s"[$level] $prefix: $msg"
}

object Log {
  def apply(prefix: String): Log = new Log(Strings.pad(prefix, 8))
}
