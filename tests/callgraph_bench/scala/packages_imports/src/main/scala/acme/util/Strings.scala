package acme.util

object Strings {
  def slug(s: String): String = s.trim.toLowerCase.replace(' ', '-')
  def pad(s: String, n: Int): String = s + (" " * (n - s.length))
}
