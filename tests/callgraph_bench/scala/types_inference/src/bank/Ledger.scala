package bank

trait Store {
  def load(id: String): Option[Account]
  def save(a: Account): Unit
}

class MemoryStore extends Store {
  private val data = scala.collection.mutable.Map[String, Account]()
  def load(id: String): Option[Account] = data.get(id)
  def save(a: Account): Unit = data(a.id) = a
}

class Ledger(store: Store) {
  private val audit: Audit = new Audit

  def open(owner: String): Account = {
    val acct = new Account(owner, 0)
    store.save(acct)
    audit.log("open", acct)
    acct
  }

  def transfer(from: String, to: String, amount: Long): Boolean = {
    val result = for {
      a <- store.load(from)
      b <- store.load(to)
    } yield {
      a.withdraw(amount)
      b.deposit(amount)
    }
    audit.log("transfer", null)
    result.isDefined
  }
}
