package todo

case class Task(id: Int, title: String, done: Boolean = false, tags: List[String] = Nil) {
  def complete(): Task = copy(done = true)
  def hasTag(tag: String): Boolean = tags.contains(tag)
  def summary: String = (if (done) "[x] " else "[ ] ") + title
}
