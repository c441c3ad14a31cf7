package todo

object App {
  def printAll(tasks: Seq[Task], show: Task => String): Unit =
    tasks.foreach(t => println(show(t)))

  def describe(t: Task): String = s"#${t.id} ${t.summary}"

  def main(args: Array[String]): Unit = {
    val list = new TaskList(Seq.empty)
    list.add("write docs", "work")
    list.add("buy milk", "home")
    val milk = list.add("call mom")
    list.complete(milk.id).map(_.summary).foreach(println)
    printAll(list.open, describe)
    printAll(list.tagged("work"), _.summary)
    val urgent = Filters.applyAll(list.open, Filters.byTag("work"), Filters.pending)
    for (t <- urgent) println(describe(t))
    list.summaries.foreach(println)
  }
}
