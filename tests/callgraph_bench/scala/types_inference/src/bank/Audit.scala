package bank

class Audit {
  private var entries = Vector.empty[String]

  def log(action: String, account: Account): Unit = {
    val who = Option(account).map(_.owner).getOrElse("-")
    entries = entries :+ s"$action $who"
  }

  def size: Int = entries.size
}
