package bank

object Main {
  def main(args: Array[String]): Unit = {
    val store: Store = new MemoryStore
    val ledger = new Ledger(store)
    val alice = ledger.open("alice")
    alice.deposit(100).deposit(20)
    val bob = ledger.open("bob")
    ledger.transfer(alice.id, bob.id, 50)
    val stmt = bob.statement()
    println(stmt.render())
    println(Events(Deposited(alice, 5), ledger))
    println(alice.current + bob.current)
    store.load("alice").foreach(a => println(a.statement().render()))
  }
}
