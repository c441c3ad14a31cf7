package todo

class TaskList(initial: Seq[Task]) {
  private var tasks: Vector[Task] = initial.toVector

  def add(title: String, tags: String*): Task = {
    val task = Task(nextId(), title, tags = tags.toList)
    tasks = tasks :+ task
    task
  }

  def nextId(): Int = if (tasks.isEmpty) 1 else tasks.map(_.id).max + 1

  def complete(id: Int): Option[Task] = {
    val found = tasks.find(_.id == id).map(_.complete())
    found.foreach(replace)
    found
  }

  private def replace(t: Task): Unit =
    tasks = tasks.map(old => if (old.id == t.id) t else old)

  def open: Vector[Task] = tasks.filterNot(_.done)

  def tagged(tag: String): Seq[Task] = for (t <- tasks if t.hasTag(tag)) yield t

  def summaries: Seq[String] = tasks.sortBy(_.id).map(_.summary)
}
