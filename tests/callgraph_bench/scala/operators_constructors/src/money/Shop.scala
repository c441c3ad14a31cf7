package money

object Shop {
  def price(item: String): Money = item match {
    case "book" => new Money(12)
    case "pen"  => new Money(150L, "EUR")
    case _      => Money.zero
  }

  def checkout(items: Seq[String]): Wallet = {
    val wallet = new Wallet("alice")
    for (i <- items) wallet += price(i)
    val doubled = price("book") * 2
    val best = doubled max price("pen")
    wallet += best + Money.zero
    println(wallet.report())
    wallet
  }
}
