package todo

object Filters {
  type Pred = Task => Boolean

  def byTag(tag: String): Pred = _.hasTag(tag)
  def pending: Pred = t => !t.done
  def both(a: Pred, b: Pred): Pred = t => a(t) && b(t)

  def applyAll(tasks: Seq[Task], preds: Pred*): Seq[Task] =
    tasks.filter(t => preds.forall(p => p(t)))
}
